import { describe, expect, it } from "vitest";
import { countConfusion, detectionMetrics } from "./confusion.js";

const outcomes = (pairs: readonly [boolean, boolean][]) =>
  pairs.map(([actual, predicted]) => ({ actual, predicted }));

describe("countConfusion", () => {
  it("counts each cell with hallucinated as the positive class", () => {
    // actual/predicted: TP, TP, FN, FP, TN, TN, TN
    const counts = countConfusion(
      outcomes([
        [true, true],
        [true, true],
        [true, false],
        [false, true],
        [false, false],
        [false, false],
        [false, false],
      ]),
    );
    expect(counts).toEqual({ tp: 2, fp: 1, tn: 3, fn: 1 });
  });
});

describe("detectionMetrics", () => {
  it("matches a hand-computed case", () => {
    // tp=2 fp=1 tn=3 fn=1, n=7
    // precision = 2/3; recall = 2/3; F1 = 2*2/(2*2+1+1) = 4/6 = 2/3
    // FPR = 1/(1+3) = 0.25; specificity = 0.75; balanced accuracy = (2/3 + 3/4)/2 = 17/24
    // hallucination rate (flagged share) = (2+1)/7 = 3/7
    const metrics = detectionMetrics({ tp: 2, fp: 1, tn: 3, fn: 1 });
    expect(metrics.n).toBe(7);
    expect(metrics.precision).toBeCloseTo(2 / 3, 12);
    expect(metrics.recall).toBeCloseTo(2 / 3, 12);
    expect(metrics.f1).toBeCloseTo(2 / 3, 12);
    expect(metrics.fpr).toBeCloseTo(0.25, 12);
    expect(metrics.balancedAccuracy).toBeCloseTo(17 / 24, 12);
    expect(metrics.hallucinationRate).toBeCloseTo(3 / 7, 12);
  });

  it.each([
    // No positives at all: recall, balanced accuracy undefined; precision undefined (nothing flagged).
    [
      "only supported, none flagged",
      { tp: 0, fp: 0, tn: 4, fn: 0 },
      { precision: undefined, recall: undefined, f1: undefined, fpr: 0, balancedAccuracy: undefined },
    ],
    // No negatives: FPR undefined; recall 1/2; precision 1; F1 = 2/(2+0+1) = 2/3.
    [
      "only hallucinated",
      { tp: 1, fp: 0, tn: 0, fn: 1 },
      { precision: 1, recall: 0.5, f1: 2 / 3, fpr: undefined, balancedAccuracy: undefined },
    ],
    // Nothing flagged with positives present: precision undefined, recall 0, F1 = 0/(0+0+2) = 0.
    [
      "nothing flagged",
      { tp: 0, fp: 0, tn: 1, fn: 2 },
      { precision: undefined, recall: 0, f1: 0, fpr: 0, balancedAccuracy: 0.5 },
    ],
  ])("reports empty denominators as undefined, never NaN: %s", (_name, counts, expected) => {
    const metrics = detectionMetrics(counts);
    for (const [key, value] of Object.entries(expected)) {
      const actual = metrics[key as keyof typeof metrics];
      if (value === undefined) expect(actual, key).toBeUndefined();
      else expect(actual, key).toBeCloseTo(value, 12);
    }
    expect(Object.values(metrics).some((value) => Number.isNaN(value))).toBe(false);
  });

  it("is all undefined rates for an empty group", () => {
    const metrics = detectionMetrics({ tp: 0, fp: 0, tn: 0, fn: 0 });
    expect(metrics.n).toBe(0);
    expect(metrics.hallucinationRate).toBeUndefined();
    expect(metrics.f1).toBeUndefined();
  });
});
