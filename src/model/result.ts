import { Schema } from "effect";
import { ClaimFinding } from "./claim.js";
import { LayerResult, SkippedLayer } from "./layer-result.js";
import { Mitigation } from "./mitigation.js";
import { RiskLevel } from "./risk.js";

export const VerificationResult = Schema.Struct({
  passed: Schema.Boolean,
  overallConfidence: Schema.Number.pipe(Schema.between(0, 1)),
  riskLevel: RiskLevel,
  layersRun: Schema.Array(LayerResult),
  mitigations: Schema.Array(Mitigation),
  totalLatencyMs: Schema.Number.pipe(Schema.nonNegative()),
  costIncurred: Schema.Number.pipe(Schema.nonNegative()),
  /** Per-claim findings merged across layers, in text order. */
  claims: Schema.Array(ClaimFinding),
  /** Layers of the profile that could not run, with the reason. A skipped layer never counts as passed. */
  skippedLayers: Schema.Array(SkippedLayer),
  /** Why the text did not pass (no layer ran, a layer failed or could not complete, low confidence...). */
  reasons: Schema.Array(Schema.String),
});
export type VerificationResult = typeof VerificationResult.Type;
export const VerificationResultSchema = VerificationResult;
