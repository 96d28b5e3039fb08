import { ratio } from "../../model/ratio.js";

/** Whether a record is really hallucinated (`actual`) and whether it was flagged (`predicted`). */
export interface Outcome {
  readonly actual: boolean;
  readonly predicted: boolean;
}

export interface ConfusionCounts {
  readonly tp: number;
  readonly fp: number;
  readonly tn: number;
  readonly fn: number;
}

/** Detection metrics with `hallucinated` as the positive class; undefined where a denominator is empty. */
export interface DetectionMetrics extends ConfusionCounts {
  readonly n: number;
  readonly precision: number | undefined;
  readonly recall: number | undefined;
  readonly f1: number | undefined;
  readonly fpr: number | undefined;
  readonly balancedAccuracy: number | undefined;
  /** Share of responses flagged as hallucinated, whatever their label. */
  readonly hallucinationRate: number | undefined;
}

export const countConfusion = (outcomes: readonly Outcome[]): ConfusionCounts => {
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (const { actual, predicted } of outcomes) {
    if (actual && predicted) tp += 1;
    else if (actual) fn += 1;
    else if (predicted) fp += 1;
    else tn += 1;
  }
  return { tp, fp, tn, fn };
};

export const detectionMetrics = (counts: ConfusionCounts): DetectionMetrics => {
  const { tp, fp, tn, fn } = counts;
  const n = tp + fp + tn + fn;
  const recall = ratio(tp, tp + fn);
  const specificity = ratio(tn, tn + fp);
  return {
    n,
    ...counts,
    precision: ratio(tp, tp + fp),
    recall,
    // 2PR/(P+R) rewritten on counts: defined (possibly 0) whenever anything is positive or flagged.
    f1: ratio(2 * tp, 2 * tp + fp + fn),
    fpr: ratio(fp, fp + tn),
    balancedAccuracy:
      recall === undefined || specificity === undefined ? undefined : (recall + specificity) / 2,
    hallucinationRate: ratio(tp + fp, n),
  };
};
