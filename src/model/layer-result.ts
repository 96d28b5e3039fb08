import { Schema } from "effect";
import { ClaimFinding } from "./claim.js";
import { LayerName } from "./layer-name.js";

export const LayerResult = Schema.Struct({
  layer: LayerName,
  passed: Schema.Boolean,
  score: Schema.Number.pipe(Schema.between(0, 1)),
  latencyMs: Schema.Number.pipe(Schema.nonNegative()),
  details: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  /** Claim-level findings of this layer (offsets into the verified text). */
  claims: Schema.optional(Schema.Array(ClaimFinding)),
  /** Model spend of this layer. */
  costIncurred: Schema.optional(Schema.Number.pipe(Schema.nonNegative())),
});
export type LayerResult = typeof LayerResult.Type;
/** The specification's name for the same schema. */
export const LayerResultSchema = LayerResult;

export const SkippedLayer = Schema.Struct({
  layer: LayerName,
  reason: Schema.String,
  /** True when the layer started but failed (an outage, a timeout): the verification cannot pass. */
  error: Schema.optional(Schema.Boolean),
});
export type SkippedLayer = typeof SkippedLayer.Type;
