import { Schema } from "effect";
import { LayerName } from "./layer-name.js";
import { RiskLevel } from "./risk.js";

/**
 * What to verify: the text, and optionally the sources and context to check it against, the user's question,
 * a risk level that replaces the assessed one, latency and cost budgets that replace the risk profile's, the
 * layers to restrict the run to, and strict mode.
 */
export const VerificationRequest = Schema.Struct({
  text: Schema.String,
  /** Conversation context or retrieved passages; counts as evidence after `sources`. */
  context: Schema.optional(Schema.String),
  sources: Schema.optional(Schema.Array(Schema.String)),
  riskOverride: Schema.optional(RiskLevel),
  maxLatencyMs: Schema.optional(Schema.Number.pipe(Schema.positive())),
  maxCost: Schema.optional(Schema.Number.pipe(Schema.nonNegative())),
  /** The user's question, when known (used by model-backed layers and reports). */
  question: Schema.optional(Schema.String),
  /** Restrict the run to these layers (evaluation and targeted re-verification). */
  layers: Schema.optional(Schema.Array(LayerName)),
  /** Any skipped layer of the profile fails the verification. */
  strict: Schema.optional(Schema.Boolean),
});
/** A text to verify with its sources, context and options (the decoded type of the schema above). */
export type VerificationRequest = typeof VerificationRequest.Type;
export const VerificationRequestSchema = VerificationRequest;
