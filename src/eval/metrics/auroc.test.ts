import { describe, expect, it } from "vitest";
import { auroc, rocCurve } from "./auroc.js";

const scored = (pairs: readonly [number, boolean][]) => pairs.map(([score, actual]) => ({ score, actual }));

describe("auroc", () => {
  it.each([
    // Perfect separation: every positive above every negative.
    [
      "perfect",
      [
        [0.9, true],
        [0.8, true],
        [0.2, false],
        [0.1, false],
      ],
      1,
    ],
    // Inverted: every positive below every negative.
    [
      "inverted",
      [
        [0.1, true],
        [0.2, true],
        [0.8, false],
        [0.9, false],
      ],
      0,
    ],
    // Pairs (pos,neg): (0.9,0.7)=1, (0.9,0.3)=1, (0.5,0.7)=0, (0.5,0.3)=1 -> 3/4.
    [
      "mixed",
      [
        [0.9, true],
        [0.5, true],
        [0.7, false],
        [0.3, false],
      ],
      0.75,
    ],
    // All scores tied: every pair counts one half -> 0.5.
    [
      "all tied",
      [
        [0.5, true],
        [0.5, true],
        [0.5, false],
      ],
      0.5,
    ],
    // Ties across classes: pos {0.8, 0.5}, neg {0.5, 0.2}. Pairs: (0.8,0.5)=1, (0.8,0.2)=1,
    // (0.5,0.5)=1/2, (0.5,0.2)=1 -> 3.5/4 = 0.875.
    [
      "partial tie",
      [
        [0.8, true],
        [0.5, true],
        [0.5, false],
        [0.2, false],
      ],
      0.875,
    ],
  ] as const)("computes the Mann-Whitney probability: %s", (_name, pairs, expected) => {
    expect(auroc(scored(pairs as unknown as [number, boolean][]))).toBeCloseTo(expected, 12);
  });

  it.each([
    [
      "no hallucinated",
      [
        [0.2, false],
        [0.4, false],
      ],
    ],
    ["no supported", [[0.2, true]]],
    ["nothing", []],
  ] as const)("is undefined when a class is empty: %s", (_name, pairs) => {
    expect(auroc(scored(pairs as unknown as [number, boolean][]))).toBeUndefined();
  });
});

describe("rocCurve", () => {
  it("steps from (0,0) to (1,1), moving diagonally over tied scores", () => {
    // Descending: 0.8(P) -> tpr 1/2; 0.5 holds P and N -> (1/2, 1); 0.2(N) -> (1, 1).
    const points = rocCurve(
      scored([
        [0.8, true],
        [0.5, true],
        [0.5, false],
        [0.2, false],
      ]),
    );
    expect(points.map((point) => [point.fpr, point.tpr])).toEqual([
      [0, 0],
      [0, 0.5],
      [0.5, 1],
      [1, 1],
    ]);
  });

  it("is empty when a class is empty and thins long curves", () => {
    expect(rocCurve(scored([[0.1, true]]))).toEqual([]);
    const many = Array.from({ length: 1000 }, (_, index) => ({
      score: index / 1000,
      actual: index % 3 === 0,
    }));
    const thinned = rocCurve(many, 50);
    expect(thinned).toHaveLength(50);
    expect(thinned[0]).toMatchObject({ fpr: 0, tpr: 0 });
    expect(thinned.at(-1)).toMatchObject({ fpr: 1, tpr: 1 });
  });
});
