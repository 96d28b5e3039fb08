import { describe, expect, it } from "vitest";
import { characterOverlap, mergeSpans, spanMetrics } from "./spans.js";

describe("mergeSpans", () => {
  it("merges overlapping and touching spans and drops empty ones", () => {
    expect(
      mergeSpans([
        { start: 5, end: 8 },
        { start: 0, end: 3 },
        { start: 3, end: 4 },
        { start: 7, end: 10 },
        { start: 12, end: 12 },
      ]),
    ).toEqual([
      { start: 0, end: 4 },
      { start: 5, end: 10 },
    ]);
  });
});

describe("characterOverlap", () => {
  it.each([
    // predicted [0,10) gold [5,15): overlap [5,10) = 5
    [
      "partial overlap",
      [{ start: 0, end: 10 }],
      [{ start: 5, end: 15 }],
      { predictedChars: 10, goldChars: 10, overlapChars: 5 },
    ],
    // disjoint: no overlap
    [
      "disjoint",
      [{ start: 0, end: 4 }],
      [{ start: 6, end: 9 }],
      { predictedChars: 4, goldChars: 3, overlapChars: 0 },
    ],
    // predicted spans overlap each other ([0,6) and [4,10) = [0,10), 10 chars) and gold [2,3) + [8,12):
    // overlap = 1 + 2 = 3; gold chars = 1 + 4 = 5
    [
      "self-overlapping prediction",
      [
        { start: 0, end: 6 },
        { start: 4, end: 10 },
      ],
      [
        { start: 2, end: 3 },
        { start: 8, end: 12 },
      ],
      { predictedChars: 10, goldChars: 5, overlapChars: 3 },
    ],
    // one gold span covering two predicted spans: [1,3) and [5,7) inside [0,8) -> overlap 4
    [
      "containment",
      [
        { start: 1, end: 3 },
        { start: 5, end: 7 },
      ],
      [{ start: 0, end: 8 }],
      { predictedChars: 4, goldChars: 8, overlapChars: 4 },
    ],
  ])("%s", (_name, predicted, gold, expected) => {
    expect(characterOverlap(predicted, gold)).toEqual(expected);
  });
});

describe("spanMetrics", () => {
  it("micro-averages over records that have gold spans only", () => {
    // record 1: predicted [0,10), gold [5,15): overlap 5, predicted 10, gold 10
    // record 2: predicted nothing, gold [0,4): overlap 0, predicted 0, gold 4
    // record 3: no gold spans -> ignored even though it has a prediction
    // precision = 5/10 = 0.5; recall = 5/14; F1 = 2*5/(10+14) = 10/24
    const metrics = spanMetrics([
      { predicted: [{ start: 0, end: 10 }], gold: [{ start: 5, end: 15 }] },
      { predicted: [], gold: [{ start: 0, end: 4 }] },
      { predicted: [{ start: 0, end: 50 }], gold: [] },
    ]);
    expect(metrics.records).toBe(2);
    expect(metrics.precision).toBeCloseTo(0.5, 12);
    expect(metrics.recall).toBeCloseTo(5 / 14, 12);
    expect(metrics.f1).toBeCloseTo(10 / 24, 12);
  });

  it("is undefined without gold spans, and precision undefined when nothing was flagged", () => {
    expect(spanMetrics([{ predicted: [{ start: 0, end: 3 }], gold: [] }])).toEqual({
      records: 0,
      precision: undefined,
      recall: undefined,
      f1: undefined,
    });
    const unflagged = spanMetrics([{ predicted: [], gold: [{ start: 0, end: 3 }] }]);
    expect(unflagged.precision).toBeUndefined();
    expect(unflagged.recall).toBe(0);
    expect(unflagged.f1).toBe(0);
  });
});
