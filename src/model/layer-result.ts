import { Schema } from "effect";
import { ClaimFinding } from "./claim.js";
import { LayerName } from "./layer-name.js";
import { Span } from "./span.js";

/**
 * What one layer reported on a text: whether it passed, its score in [0, 1] (higher means the text holds up
 * better), how long it took, free-form details, and, when it has them, its claim-level findings and model spend.
 */
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
  /**
   * The figures of the text this layer traced to a figure of the evidence, as written or within rounding or
   * scale ("12.6 million" for 12,600,000): spans into the verified text. Another layer that marked such a figure
   * absent from the sources reads this to accept it (grounding reads the numbers layer's).
   */
  tracedFigures: Schema.optional(Schema.Array(Span)),
});
/** One layer's outcome on a text (the decoded type of the schema above). */
export type LayerResult = typeof LayerResult.Type;
/** Another name for `LayerResult` (the same schema), for code that names schemas with a `Schema` suffix. */
export const LayerResultSchema = LayerResult;

export const SkippedLayer = Schema.Struct({
  layer: LayerName,
  reason: Schema.String,
  /** True when the layer started but failed (an outage, a timeout): the verification cannot pass. */
  error: Schema.optional(Schema.Boolean),
});
export type SkippedLayer = typeof SkippedLayer.Type;
