import { Schema } from "effect";

export const MitigationAction = Schema.Literal(
  "flag-uncertain",
  "add-disclaimer",
  "request-sources",
  "block-response",
  "regenerate",
  "decompose-and-retry",
  "redact",
);
export type MitigationAction = typeof MitigationAction.Type;

export const Mitigation = Schema.Struct({
  action: MitigationAction,
  reason: Schema.String,
  originalText: Schema.String,
  correctedText: Schema.optional(Schema.String),
});
export type Mitigation = typeof Mitigation.Type;
export const MitigationSchema = Mitigation;
