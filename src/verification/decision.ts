import type { LayerResult, SkippedLayer } from "../model/layer-result.js";
import type { RiskProfile } from "../model/risk.js";

export interface Decision {
  readonly passed: boolean;
  readonly overallConfidence: number;
  /** Why the text did not pass; empty when it passed. */
  readonly reasons: readonly string[];
}

export interface DecisionInput {
  /** Layer results with calibrated scores. */
  readonly layers: readonly LayerResult[];
  readonly skipped: readonly SkippedLayer[];
  /** Layers that failed to run (an outage, a timeout): never a pass. */
  readonly errored: readonly SkippedLayer[];
  readonly profile: RiskProfile;
  readonly strict: boolean;
}

/**
 * The decision rule. `overallConfidence` is the lowest calibrated score among the layers that ran (one
 * failing check is enough to doubt a text; averaging would let a clean layer hide a failing one), or 0 when
 * none ran. `passed` needs at least one layer to have run, every layer that ran to pass, no layer to have
 * failed to run, confidence at or above the profile's `minConfidence`, and, in strict mode, no skipped layer.
 */
export const decide = (input: DecisionInput): Decision => {
  const reasons: string[] = [];
  const overallConfidence =
    input.layers.length === 0
      ? 0
      : Math.min(...input.layers.map((layer) => Math.max(0, Math.min(1, layer.score))));
  if (input.layers.length === 0) reasons.push("no verification layer could run");
  for (const layer of input.layers) if (!layer.passed) reasons.push(`layer ${layer.layer} failed`);
  for (const layer of input.errored) reasons.push(`layer ${layer.layer} could not complete: ${layer.reason}`);
  if (input.layers.length > 0 && overallConfidence < input.profile.minConfidence) {
    reasons.push(
      `confidence ${overallConfidence.toFixed(2)} is below the profile's minimum ${input.profile.minConfidence.toFixed(2)}`,
    );
  }
  if (input.strict)
    for (const layer of input.skipped)
      reasons.push(`strict: layer ${layer.layer} was skipped (${layer.reason})`);
  return { passed: reasons.length === 0, overallConfidence, reasons };
};
