import { describe, expect, it } from "vitest";
import { tuneThreshold } from "./threshold.js";

const scored = (pairs: readonly [number, boolean][]) => pairs.map(([score, actual]) => ({ score, actual }));

describe("tuneThreshold", () => {
  it("picks the score that maximizes balanced accuracy", () => {
    // Positives 0.9, 0.6, 0.3; negatives 0.5, 0.2, 0.1.
    // t=0.9: recall 1/3, spec 1 -> 0.667; t=0.6: 2/3, 1 -> 0.833; t=0.5: 2/3, 2/3 -> 0.667;
    // t=0.3: 1, 2/3 -> 0.833 (tie: the higher threshold 0.6 is kept); t=0.2: 1, 1/3; t=0.1: 1, 0 -> 0.5
    const tuned = tuneThreshold(
      scored([
        [0.9, true],
        [0.6, true],
        [0.3, true],
        [0.5, false],
        [0.2, false],
        [0.1, false],
      ]),
    );
    expect(tuned?.threshold).toBe(0.6);
    expect(tuned?.balancedAccuracy).toBeCloseTo(5 / 6, 12);
  });

  it("treats tied scores as one candidate", () => {
    // Both at 0.5: t=0.5 flags both -> recall 1, spec 0 -> 0.5; nothing better exists.
    expect(
      tuneThreshold(
        scored([
          [0.5, true],
          [0.5, false],
        ]),
      ),
    ).toEqual({ threshold: 0.5, balancedAccuracy: 0.5 });
  });

  it("is undefined when a class is empty", () => {
    expect(
      tuneThreshold(
        scored([
          [0.5, true],
          [0.7, true],
        ]),
      ),
    ).toBeUndefined();
    expect(tuneThreshold([])).toBeUndefined();
  });
});
