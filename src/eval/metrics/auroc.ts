/** A hallucination score (higher = more likely hallucinated) and the true label. */
export interface ScoredOutcome {
  readonly score: number;
  readonly actual: boolean;
}

/**
 * Area under the ROC curve: the probability that a random hallucinated record scores above a random
 * supported one, ties counting one half (Mann-Whitney U with mid-ranks). Undefined when a class is empty.
 */
export const auroc = (outcomes: readonly ScoredOutcome[]): number | undefined => {
  const positives = outcomes.filter((outcome) => outcome.actual).length;
  const negatives = outcomes.length - positives;
  if (positives === 0 || negatives === 0) return undefined;
  const sorted = [...outcomes].sort((a, b) => a.score - b.score);
  let positiveRankSum = 0;
  let start = 0;
  while (start < sorted.length) {
    let end = start;
    while (end + 1 < sorted.length && sorted[end + 1]!.score === sorted[start]!.score) end += 1;
    // Ranks start+1 .. end+1 share their mean rank.
    const midRank = (start + end + 2) / 2;
    for (let index = start; index <= end; index += 1) if (sorted[index]!.actual) positiveRankSum += midRank;
    start = end + 1;
  }
  return (positiveRankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
};

export interface RocPoint {
  readonly fpr: number;
  readonly tpr: number;
  /** Records scoring at or above this threshold are flagged. */
  readonly threshold: number;
}

/**
 * The ROC curve from (0,0) to (1,1), one point per distinct score (tied scores move diagonally).
 * Returns [] when a class is empty. At most `maxPoints` points are kept (evenly thinned, ends kept).
 */
export const rocCurve = (outcomes: readonly ScoredOutcome[], maxPoints = 400): readonly RocPoint[] => {
  const positives = outcomes.filter((outcome) => outcome.actual).length;
  const negatives = outcomes.length - positives;
  if (positives === 0 || negatives === 0) return [];
  const sorted = [...outcomes].sort((a, b) => b.score - a.score);
  const points: RocPoint[] = [{ fpr: 0, tpr: 0, threshold: Number.POSITIVE_INFINITY }];
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
    points.push({ fpr: falsePositives / negatives, tpr: truePositives / positives, threshold });
  }
  if (points.length <= maxPoints) return points;
  const step = (points.length - 1) / (maxPoints - 1);
  return Array.from({ length: maxPoints }, (_, position) => points[Math.round(position * step)]!);
};
