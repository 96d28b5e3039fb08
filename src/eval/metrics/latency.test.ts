import { describe, expect, it } from "vitest";
import { latencyMetrics, percentile } from "./latency.js";
import { tokensOf, usageOf } from "./usage.js";

describe("percentile (nearest rank)", () => {
  it.each([
    // n=4: p50 rank ceil(2)=2 -> 20; p95 rank ceil(3.8)=4 -> 40
    [[40, 10, 30, 20], 50, 20],
    [[40, 10, 30, 20], 95, 40],
    // n=20 values 1..20: p95 rank ceil(19)=19 -> 19
    [Array.from({ length: 20 }, (_, index) => index + 1), 95, 19],
    [[7], 50, 7],
  ])("percentile(%j, %d) = %d", (values, percent, expected) => {
    expect(percentile(values, percent)).toBe(expected);
  });

  it("is undefined for no values", () => {
    expect(latencyMetrics([])).toEqual({ p50Ms: undefined, p95Ms: undefined });
  });
});

describe("usage", () => {
  it.each([
    [120, 120],
    [{ total: 50 }, 50],
    [{ totalTokens: 30 }, 30],
    [{ inputTokens: 10, outputTokens: 5 }, 15],
    [{ input: 3, output: 4 }, 7],
    ["lots", 0],
    [-5, 0],
    [null, 0],
  ])("tokensOf(%j) = %d", (value, expected) => {
    expect(tokensOf(value)).toBe(expected);
  });

  it("sums llmCalls and tokens from layer details and takes the result's cost", () => {
    const usage = usageOf(
      [
        { details: { llmCalls: 2, tokens: 100 } },
        { details: { llmCalls: 3, tokens: { total: 50 } } },
        { details: {} },
      ],
      0.004,
    );
    expect(usage).toEqual({ llmCalls: 5, tokens: 150, cost: 0.004 });
  });

  it("counts the model calls the model-backed layers record as details.modelCalls", () => {
    // run-model-layer.ts writes `modelCalls`: 3 (nli) + 5 (self-consistency) = 8
    const usage = usageOf(
      [{ details: { modelCalls: 3 } }, { details: { modelCalls: 5, verdict: "x" } }],
      0.01,
    );
    expect(usage).toEqual({ llmCalls: 8, tokens: 0, cost: 0.01 });
  });
});
