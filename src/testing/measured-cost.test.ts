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

  it("reads the ratio of the two sizes' CPU time, whatever else the machine runs", async () => {
    // A millisecond of this thread's CPU per unit of size: the time `pairedCostRatio` measures. Busy on the wall
    // clock instead, a run that lost the CPU for part of its time got less of it than its size, and the pair's
    // ratio read 2.56 once on a loaded 2-core machine. Runs of tens of milliseconds: the thread's CPU time
    // (/proc/thread-self/schedstat) moves in steps of a scheduler tick, 4 ms on a 250 Hz kernel, so a 10 ms
    // run read as anything from 6 to 14 ms, and a pair of 10 and 20 ms runs read 1.44 once on such a machine.
    // At 40 and 80 ms the ratio reads 1.58 to 2.44 at worst.
    const busy = async (size: number) => {
      const until = threadCpuMicros() + size * 1_000;
      while (threadCpuMicros() < until);
    };
    const ratio = await pairedCostRatio(busy, 40, 80, { warmups: 1, rounds: 3 });
    expect(ratio).toBeGreaterThan(1.5);
    expect(ratio).toBeLessThan(2.5);
  });

  it("stops at its budget: the pairs timed by then, or an error naming the runs when none was", async () => {
    // Runs that wait on the wall clock, which the budget reads: a run that spins on the CPU instead takes longer
    // on the wall clock when the machine is busy, and the budget then falls anywhere in the sequence.
    const sizes: number[] = [];
    const wait = (size: number) => {
      sizes.push(size);
      return new Promise<void>((resolve) => setTimeout(resolve, size));
    };
    // Warm-ups of 40 + 80 ms stay inside 200 ms; the first pair ends past it, and no second pair starts.
    await pairedCostRatio(wait, 40, 80, { warmups: 1, rounds: 7, budgetMs: 200 });
    expect(sizes).toEqual([40, 80, 40, 80]);

    sizes.length = 0;
    await expect(pairedCostRatio(wait, 10, 40, { warmups: 3, budgetMs: 30 })).rejects.toThrow(
      /past the 30 ms budget, before one pair was timed \(10: \d+ ms, 40: \d+ ms\)/,
    );
    expect(sizes).toEqual([10, 40]);
  });

  it("counts the calling thread's CPU, which grows while it works", () => {
    const before = threadCpuMicros();
    let sink = 0;
    for (let i = 0; i < 20_000_000; i++) sink = (sink + i) % 7;
    expect(sink).toBeGreaterThanOrEqual(0);
    expect(threadCpuMicros()).toBeGreaterThan(before);
  });
});
