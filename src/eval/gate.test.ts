import { describe, expect, it } from "vitest";
import { checkGate } from "./gate.js";
import { groupMetrics } from "./metrics/summary.js";
import { samplePrediction } from "./report/test-predictions.js";

// tp: h1; fn: h2; tn: s1, s2 -> balanced accuracy (1/2 + 1)/2 = 0.75, FPR 0
// scores: positives {0.9, 0.3}, negatives {0.2, 0.4}: 0.9 beats both, 0.3 beats 0.2 -> AUROC 3/4
const metrics = groupMetrics([
  samplePrediction({ id: "h1", label: "hallucinated", score: 0.9 }),
  samplePrediction({ id: "h2", label: "hallucinated", score: 0.3 }),
  samplePrediction({ id: "s1", label: "supported", score: 0.2 }),
  samplePrediction({ id: "s2", label: "supported", score: 0.4 }),
]);

describe("checkGate", () => {
  it.each([
    ["all bars met", { minBalancedAccuracy: 0.7, maxFpr: 0.05, minAuroc: 0.7 }, []],
    [
      "balanced accuracy missed",
      { minBalancedAccuracy: 0.8 },
      ["balanced accuracy 0.7500 is below the minimum 0.8000"],
    ],
    ["AUROC missed", { minAuroc: 0.76 }, ["AUROC 0.7500 is below the minimum 0.7600"]],
    ["FPR over", { maxFpr: -0.1 }, ["false positive rate 0.0000 is above the maximum -0.1000"]],
    ["no bars", {}, []],
  ])("%s", (_name, bars, misses) => {
    const outcome = checkGate(metrics, bars);
    expect(outcome.misses).toEqual(misses);
    expect(outcome.passed).toBe(misses.length === 0);
  });

  it("fails a bar whose metric is undefined (an empty class)", () => {
    const onlySupported = groupMetrics([samplePrediction({ id: "s", label: "supported", score: 0.1 })]);
    const outcome = checkGate(onlySupported, { minAuroc: 0.5, maxFpr: 0.5 });
    expect(outcome.passed).toBe(false);
    expect(outcome.misses).toEqual(["AUROC is undefined (a class is empty), bar min 0.5000 not met"]);
  });
});
