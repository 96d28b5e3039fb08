import { describe, expect, it } from "vitest";
import { pairedCostRatio, threadCpuMicros } from "./measured-cost.js";

describe("pairedCostRatio", () => {
  it("tells work that compares every pair of parts from work that reads each part once", async () => {
    // Each run counts into a local and folds it, bounded, into one sink: a sum kept across runs would outgrow
    // a small integer part way through and slow the later runs.
    let sink = 0;
    const pairs = async (size: number) => {
      let count = 0;
      for (let i = 0; i < size; i++) for (let j = 0; j < size; j++) count += (i ^ j) & 1;
      sink = ((sink + count) % 65_521) + 1;
    };
    const scan = async (size: number) => {
      let count = 0;
      for (let k = 0; k < 400; k++) for (let i = 0; i < size; i++) count += (i ^ k) & 1;
      sink = ((sink + count) % 65_521) + 1;
    };
    expect(await pairedCostRatio(pairs, 4_000, 8_000)).toBeGreaterThan(3);
    expect(await pairedCostRatio(scan, 100_000, 200_000)).toBeLessThan(2.5);
    expect(sink).toBeGreaterThan(0);
  });

  it("counts the calling thread's CPU, which grows while it works", () => {
    const before = threadCpuMicros();
    let sink = 0;
    for (let i = 0; i < 20_000_000; i++) sink = (sink + i) % 7;
    expect(sink).toBeGreaterThanOrEqual(0);
    expect(threadCpuMicros()).toBeGreaterThan(before);
  });
});
