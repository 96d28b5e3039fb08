import type { ClaimFinding } from "./claim.js";
import type { LayerResult } from "./layer-result.js";
import type { VerificationResult } from "./result.js";

/**
 * A verification result without its claims' evidence passages and without each layer's own claim findings (the
 * top-level claims merge them): the verdict, the scores, the layers and the claims' verdicts, spans, issues and
 * signals, about half a result's size. What reads only that (an evaluation's predictions) can take a lean
 * result from a worker thread, which then copies half as much across; a whole result is a lean one too.
 */
export type LeanVerificationResult = Omit<VerificationResult, "claims" | "layersRun"> & {
  readonly claims: readonly Omit<ClaimFinding, "evidence">[];
  readonly layersRun: readonly Omit<LayerResult, "claims">[];
};

/** A result's layers without their own claim findings (the top-level claims merge them). */
export const layersWithoutClaims = (result: VerificationResult): Omit<LayerResult, "claims">[] =>
  result.layersRun.map(({ claims: _claims, ...layer }) => layer);

/** `result` without its claims' evidence passages and its layers' own claim findings. */
export const leanResult = (result: VerificationResult): LeanVerificationResult => ({
  ...result,
  claims: result.claims.map(({ evidence: _evidence, ...claim }) => claim),
  layersRun: layersWithoutClaims(result),
});
