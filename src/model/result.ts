import { Schema } from "effect";
import { ClaimFinding } from "./claim.js";
import { LayerResult, SkippedLayer } from "./layer-result.js";
import { Mitigation } from "./mitigation.js";
import { RiskLevel } from "./risk.js";

/**
 * The answer's verdict: `fail` (a claim is contradicted, has no support at all, or the evidence as a whole
 * speaks against the answer), `warn` (some claims are unsupported, none decisively), `pass`, or
 * `unverified` (nothing could be checked: no sources, no layer that covers the claims). `unverified` is never
 * a pass.
 */
export const AnswerVerdict = Schema.Literal("pass", "warn", "fail", "unverified");
export type AnswerVerdict = typeof AnswerVerdict.Type;

/**
 * The outcome of verifying one text: the answer's verdict, combined hallucination score and confidence, the
 * risk level it ran at, each layer's result and the layers skipped, the per-claim findings, any mitigations,
 * the time and model spend, and the reasons it did not pass.
 */
export const VerificationResult = Schema.Struct({
  verdict: AnswerVerdict,
  /** True for `pass` and `warn`: nothing failed and something was checked. */
  passed: Schema.Boolean,
  /**
   * The combined likelihood in [0, 1] that the answer holds a hallucination, from every signal of the
   * layers that ran; absent when no evidence layer judged a claim.
   */
  hallucinationScore: Schema.optional(Schema.Number.pipe(Schema.between(0, 1))),
  /** Share of the answer's claims some layer could check (not `unverifiable`). */
  coverage: Schema.Number.pipe(Schema.between(0, 1)),
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
  /**
   * Present when the evidence was larger than the settings' `evidenceFocus.above`: the layers read only the
   * passages that share the claims' rarer words and figures, `keptCharacters` of `totalCharacters`.
   */
  evidenceFocus: Schema.optional(
    Schema.Struct({
      totalCharacters: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
      keptCharacters: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
      passagesKept: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
      passages: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
    }),
  ),
});
/** The outcome of verifying one text (the decoded type of the schema above). */
export type VerificationResult = typeof VerificationResult.Type;
export const VerificationResultSchema = VerificationResult;
