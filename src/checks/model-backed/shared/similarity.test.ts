import { describe, expect, it } from "vitest";
import { clusterEntropy, cosineSimilarity, pairwiseSimilarities } from "./similarity.js";

describe("similarity", () => {
  it.each([
    [[1, 0], [1, 0], 1],
    [[1, 0], [0, 1], 0],
    [[1, 1], [2, 2], 1],
    [[0, 0], [1, 0], 0],
  ])("cosine of %j and %j is %d", (a, b, expected) => {
    expect(cosineSimilarity(a, b)).toBeCloseTo(expected);
  });

  it("lists every pair once", () => {
    expect(
      pairwiseSimilarities([
        [1, 0],
        [1, 0],
        [0, 1],
      ]),
    ).toEqual([1, 0, 0]);
  });

  it.each([
    [[3], 3, 0],
    [[1, 1, 1], 3, 1],
    [[2, 1], 3, 0.5794],
  ])("entropy of clusters %j over %d samples is %d", (sizes, total, expected) => {
    expect(clusterEntropy(sizes, total)).toBeCloseTo(expected, 3);
  });
});
