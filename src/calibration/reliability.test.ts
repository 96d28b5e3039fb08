import { describe, expect, it } from "vitest";
import { calibrationMetrics } from "./reliability.js";

describe("calibrationMetrics", () => {
  it("matches a hand-computed ECE and Brier score", () => {
    // Bin 9 [0.9,1]: confidences 0.95, 0.95 (1 supported, 1 not): mean 0.95, observed 0.5, |gap| 0.45
    // Bin 1 [0.1,0.2): confidences 0.15 (not supported): mean 0.15, observed 0, |gap| 0.15
    // Bin 5 [0.5,0.6): confidence 0.5 (supported): mean 0.5, observed 1, |gap| 0.5
    // ECE = 2/4*0.45 + 1/4*0.15 + 1/4*0.5 = 0.225 + 0.0375 + 0.125 = 0.3875
    // Brier = ((0.95-1)^2 + (0.95-0)^2 + (0.15-0)^2 + (0.5-1)^2)/4 = (0.0025+0.9025+0.0225+0.25)/4 = 0.294375
    const metrics = calibrationMetrics([
      { confidence: 0.95, supported: true },
      { confidence: 0.95, supported: false },
      { confidence: 0.15, supported: false },
      { confidence: 0.5, supported: true },
    ]);
    expect(metrics.ece).toBeCloseTo(0.3875, 12);
    expect(metrics.brier).toBeCloseTo(0.294375, 12);
    expect(metrics.bins).toHaveLength(10);
    expect(metrics.bins[9]).toMatchObject({ count: 2, meanConfidence: 0.95, observedSupported: 0.5 });
    expect(metrics.bins[0]).toMatchObject({
      count: 0,
      meanConfidence: undefined,
      observedSupported: undefined,
    });
  });

  it("puts a confidence of exactly 1 in the last bin and is perfect when confidence equals the outcome", () => {
    const metrics = calibrationMetrics([
      { confidence: 1, supported: true },
      { confidence: 0, supported: false },
    ]);
    expect(metrics.bins[9]!.count).toBe(1);
    expect(metrics.bins[0]!.count).toBe(1);
    expect(metrics.ece).toBe(0);
    expect(metrics.brier).toBe(0);
  });

  it("is undefined, not NaN, without data", () => {
    const metrics = calibrationMetrics([]);
    expect(metrics.ece).toBeUndefined();
    expect(metrics.brier).toBeUndefined();
  });
});
