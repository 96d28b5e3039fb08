import type { CombinerModel } from "../calibration/combiner/combiner.js";
import type { ClaimFinding } from "../model/claim.js";
import { isEvidenceLayer } from "../model/layer-name.js";
import type { LayerResult, SkippedLayer } from "../model/layer-result.js";
import type { AnswerVerdict } from "../model/result.js";
import type { RiskLevel, RiskProfile } from "../model/risk.js";
import { isBareUntracedFigure } from "./verdict/bare-figure.js";
import { isUnsupportedOutright } from "./verdict/outright.js";

export interface Decision {
  readonly verdict: AnswerVerdict;
  /** True for `pass` and `warn`. */
  readonly passed: boolean;
  readonly overallConfidence: number;
  /** Why the answer did not pass, or what the warning is about; empty on a clean pass. */
  readonly reasons: readonly string[];
}

export interface DecisionInput {
  /** Layer results with calibrated scores. */
  readonly layers: readonly LayerResult[];
  readonly skipped: readonly SkippedLayer[];
  /** Layers that failed to run (an outage, a timeout): never a pass. */
  readonly errored: readonly SkippedLayer[];
  readonly riskLevel: RiskLevel;
  readonly profile: RiskProfile;
  readonly strict: boolean;
  /** Every claim of the answer, merged across layers; claims no layer judged are `unverifiable`. */
  readonly claims: readonly ClaimFinding[];
  /** The combiner's likelihood that the answer holds a hallucination; undefined when no claim was judged. */
  readonly hallucinationScore: number | undefined;
  readonly combiner: Pick<CombinerModel, "failThreshold" | "warnThreshold">;
}

const combinerReasonStart = "combined hallucination score";

/** True for the reason the combined score gives; every other reason of a `fail` is a rule's. */
export const isCombinerReason = (reason: string): boolean => reason.startsWith(combinerReasonStart);

const isFailingClaim = (claim: ClaimFinding) =>
  claim.verdict === "contradicted" || claim.verdict === "unsupported";

/**
 * The answer verdict, by this policy at every risk level:
 * - `fail`: a claim is contradicted; a claim has no support at all (nearly none of its words in the passages
 *   that match it best, or nothing but figures that trace to nothing); a layer could not complete; a model-backed layer failed or scored below the risk
 *   profile's `minConfidence`; an evidence layer failed without saying which claim; and, except at `low` risk,
 *   the combined hallucination score reached the combiner's fail threshold. At `critical` risk any unsupported
 *   claim fails. In strict mode a skipped layer of the profile fails too.
 * - `unverified`: no layer ran, or none judged any claim (no sources, no layer that covers them); strict
 *   mode makes it `fail`.
 * - `warn`: some claims are unsupported, or the combined score reached the warn threshold.
 * - `pass`: everything checked held.
 * `overallConfidence` is 1 minus the combined score, capped by the lowest model-backed layer's score (one
 * failing check is enough to doubt a text), or 0 when nothing ran.
 */
export const decide = (input: DecisionInput): Decision => {
  const failures: string[] = [];
  const warnings: string[] = [];
  const judged = input.claims.filter((claim) => claim.verdict !== "unverifiable");
  const modelLayers = input.layers.filter((layer) => !isEvidenceLayer(layer.layer));
  const modelConfidence = modelLayers.reduce((lowest, layer) => Math.min(lowest, clamp(layer.score)), 1);
  const overallConfidence =
    input.layers.length === 0
      ? 0
      : Math.min(input.hallucinationScore === undefined ? 1 : 1 - input.hallucinationScore, modelConfidence);

  for (const layer of input.errored)
    failures.push(`layer ${layer.layer} could not complete: ${layer.reason}`);
  const contradicted = input.claims.filter((claim) => claim.verdict === "contradicted");
  if (contradicted.length > 0)
    failures.push(`${count(contradicted.length, "claim")} contradicted by the sources`);
  const outright = input.claims.filter(
    (claim) => isUnsupportedOutright(claim) || isBareUntracedFigure(claim),
  );
  if (outright.length > 0) failures.push(`${count(outright.length, "claim")} with no support in the sources`);
  for (const layer of modelLayers) {
    if (!layer.passed) failures.push(`layer ${layer.layer} failed`);
    else if (layer.score < input.profile.minConfidence)
      failures.push(
        `layer ${layer.layer} scored ${layer.score.toFixed(2)}, below the profile's minimum ${input.profile.minConfidence.toFixed(2)}`,
      );
  }
  for (const layer of input.layers)
    if (isEvidenceLayer(layer.layer) && !layer.passed && !(layer.claims ?? []).some(isFailingClaim))
      failures.push(`layer ${layer.layer} failed`);

  const unsupported = input.claims.filter((claim) => claim.verdict === "unsupported");
  const score = input.hallucinationScore;
  if (score !== undefined && input.riskLevel !== "low" && score >= input.combiner.failThreshold)
    failures.push(`${combinerReasonStart} ${score.toFixed(2)} reaches the fail threshold`);
  if (input.riskLevel === "critical" && unsupported.length > outright.length)
    failures.push(`${count(unsupported.length, "claim")} unsupported at critical risk`);
  if (input.strict)
    for (const layer of input.skipped)
      failures.push(`strict: layer ${layer.layer} was skipped (${layer.reason})`);

  if (unsupported.length > 0)
    warnings.push(`${count(unsupported.length, "claim")} not supported by the sources`);
  if (score !== undefined && score >= input.combiner.warnThreshold)
    warnings.push(`${combinerReasonStart} ${score.toFixed(2)} reaches the warn threshold`);

  const nothingChecked = input.layers.length === 0 || (judged.length === 0 && modelLayers.length === 0);
  if (failures.length > 0) return { verdict: "fail", passed: false, overallConfidence, reasons: failures };
  if (nothingChecked) {
    const reason =
      input.layers.length === 0
        ? "no verification layer could run"
        : "no claim could be checked against evidence";
    return input.strict
      ? { verdict: "fail", passed: false, overallConfidence: 0, reasons: [`strict: ${reason}`] }
      : { verdict: "unverified", passed: false, overallConfidence: 0, reasons: [reason] };
  }
  if (warnings.length > 0) return { verdict: "warn", passed: true, overallConfidence, reasons: warnings };
  return { verdict: "pass", passed: true, overallConfidence, reasons: [] };
};

const clamp = (value: number): number => Math.max(0, Math.min(1, value));
const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? "" : "s"}`;
