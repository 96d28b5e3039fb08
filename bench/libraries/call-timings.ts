import { availableParallelism, loadavg } from "node:os";

/** Calls per second over a run, and the median and 99th-percentile latency of one call, in milliseconds. */
export interface CallTimings {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/**
 * Calls `run(0)` to `run(count - 1)`, `inFlight` at a time (each of `inFlight` loops takes the next index when
 * its call ends), and times them: the rate over the whole run and each call's latency, waiting included.
 */
export const timeCalls = async (
  count: number,
  run: (index: number) => Promise<unknown> | unknown,
  inFlight = 1,
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
        latencies.push(performance.now() - t);
      }
    }),
  );
  const wall = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return { perSecond: (count / wall) * 1000, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
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
