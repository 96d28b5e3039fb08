import { Schema } from "effect";
import { ClaimFinding } from "./claim.js";

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

/**
 * What to do about a text that failed verification: the action chosen and why, the original text, and the
 * text to use instead when the action gives one (uncertain claims flagged, a disclaimer added, a model's
 * regeneration, the reply that replaces a blocked text), with the verification of a model-written one.
 */
export const Mitigation = Schema.Struct({
  action: MitigationAction,
  reason: Schema.String,
  originalText: Schema.String,
  correctedText: Schema.optional(Schema.String),
  /**
   * The verification of a model-written `correctedText` (a regeneration), run like the first one within what
   * was left of the same latency budget. A regeneration that could not be verified has `passed: false`.
   */
  verification: Schema.optional(
    Schema.Struct({
      passed: Schema.Boolean,
      overallConfidence: Schema.Number,
      reasons: Schema.Array(Schema.String),
      claims: Schema.Array(ClaimFinding),
      totalLatencyMs: Schema.Number,
    }),
  ),
});
/** The action chosen for a failed text, with its reason and any replacement text (the decoded type of the schema above). */
export type Mitigation = typeof Mitigation.Type;
export const MitigationSchema = Mitigation;
