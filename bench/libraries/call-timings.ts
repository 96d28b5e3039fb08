import { availableParallelism, loadavg } from "node:os";
import { percentileOfSorted } from "./statistics.js";

/** Calls per second over a run, and the median and 99th-percentile latency of one call, in milliseconds. */
export interface CallTimings {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

/**
 * Calls `run(0)` to `run(count - 1)`, `inFlight` at a time (each of `inFlight` loops takes the next index when
 * its call ends), and times them: the rate over the whole run and each call's latency, waiting included.
 * `onLatency`, when given, hears each call's latency with its index.
 */
export const timeCalls = async (
  count: number,
  run: (index: number) => Promise<unknown> | unknown,
  inFlight = 1,
  onLatency?: (index: number, milliseconds: number) => void,
): Promise<CallTimings> => {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) {
        const index = next++;
        const t = performance.now();
        await run(index);
        const latency = performance.now() - t;
        latencies.push(latency);
        onLatency?.(index, latency);
      }
    }),
  );
  const wall = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (count / wall) * 1000,
    p50: percentileOfSorted(latencies, 50),
    p99: percentileOfSorted(latencies, 99),
  };
};

/**
 * The timings of each group of one run's calls (calls one at a time): its rate is the inverse of its mean
 * latency, since its calls were interleaved with the other groups'.
 */
export const groupTimings = (
  latencies: readonly number[],
  groupOf: (index: number) => string,
): Map<string, CallTimings & { readonly calls: number }> => {
  const groups = new Map<string, number[]>();
  latencies.forEach((latency, index) => {
    const group = groupOf(index);
    const values = groups.get(group);
    if (values) values.push(latency);
    else groups.set(group, [latency]);
  });
  const timings = new Map<string, CallTimings & { readonly calls: number }>();
  for (const [group, values] of groups) {
    const sorted = [...values].sort((a, b) => a - b);
    const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
    timings.set(group, {
      calls: sorted.length,
      perSecond: 1000 / mean,
      p50: percentileOfSorted(sorted, 50),
      p99: percentileOfSorted(sorted, 99),
    });
  }
  return timings;
};

/** The header of a table of `timingsRow`s. */
export const timingsHeader = "| run | per second | p50 ms | p99 ms |\n|---|---|---|---|";

/** One row of a markdown table: the run's name, its rate and its latencies. */
export const timingsRow = (name: string, timings: CallTimings): string =>
  `| ${name} | ${timings.perSecond.toFixed(0)} | ${timings.p50.toFixed(2)} | ${timings.p99.toFixed(2)} |`;

/** Node's version, the cores and the load averages: what a figure needs beside it to be compared. */
export const machineLine = (): string =>
  `node ${process.version}, ${availableParallelism()} cores, load ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" ")}`;
