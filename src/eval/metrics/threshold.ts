import type { ScoredOutcome } from "./auroc.js";

export interface TunedThreshold {
  /** Flag a record when its hallucination score is at or above this value. */
  readonly threshold: number;
  /** Balanced accuracy reached on the data the threshold was tuned on. */
  readonly balancedAccuracy: number;
}

/**
 * The threshold on the hallucination score that maximizes balanced accuracy on `outcomes`, chosen among
 * the observed scores (ties go to the higher threshold, which flags less). Undefined when a class is empty:
 * there is nothing to tune against. Tune on one split and apply the result unchanged to another; never
 * report on the tuning data. One sort and one sweep: O(n log n).
 */
export const tuneThreshold = (outcomes: readonly ScoredOutcome[]): TunedThreshold | undefined => {
  const positives = outcomes.filter((outcome) => outcome.actual).length;
  const negatives = outcomes.length - positives;
  if (positives === 0 || negatives === 0) return undefined;
  const sorted = [...outcomes].sort((a, b) => b.score - a.score);
  let best: TunedThreshold | undefined;
  let truePositives = 0;
  let falsePositives = 0;
  let index = 0;
  while (index < sorted.length) {
    const threshold = sorted[index]!.score;
    while (index < sorted.length && sorted[index]!.score === threshold) {
      if (sorted[index]!.actual) truePositives += 1;
      else falsePositives += 1;
      index += 1;
    }
    const balancedAccuracy = (truePositives / positives + (negatives - falsePositives) / negatives) / 2;
    if (best === undefined || balancedAccuracy > best.balancedAccuracy)
      best = { threshold, balancedAccuracy };
  }
  return best;
};
