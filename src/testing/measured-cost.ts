import { readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * CPU time the calling thread has used, in microseconds: on Linux its own time on a CPU
 * (/proc/thread-self/schedstat, in nanoseconds), elsewhere the process's (`process.cpuUsage`, every thread).
 * For tests that compare the cost of two runs of the same code: the process's figure also counts V8's own
 * threads, whose compiling and concurrent collecting land in one run or the other by when they happen.
 */
export const threadCpuMicros = (): number => {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1_000;
  } catch {
    const { user, system } = process.cpuUsage();
    return user + system;
  }
};

// The flag exposes `gc` to contexts made after it is set.
setFlagsFromString("--expose-gc");

/**
 * A full garbage collection. A test that times a run calls it first, so the run neither pays for the garbage of
 * the one before it nor meets the heap at whatever size makes the collector run; a test that weighs what code
 * leaves on the heap calls it before and after. Without it, the FIFO semaphore's doubling test read 2.4-2.8x
 * on a 2-core machine (the larger run after the smaller one's garbage), with it 1.4-2.1x, over the same code.
 */
export const collectGarbage = runInNewContext("gc") as () => void;

/**
 * How many times the cost of `run(small)` the cost of `run(large)` is, in this thread's CPU time: both sizes
 * warmed up `warmups` times (the first runs still compile), then `rounds` pairs timed back to back, each run from
 * a collected heap, the order inside a pair alternating, and the median of the pairs' ratios returned.
 *
 * A pair's two runs are a fraction of a second apart, so a stretch when the machine runs slowly (a small virtual
 * machine whose host is busy counts its stolen time as the thread's) lands in both runs of a pair, or in few
 * enough pairs that the median leaves them out. The fastest run of each size, compared instead, read 2.59x once
 * on a 2-core machine where the same code's pairs read about 2x: a quick small run just before such a stretch,
 * every large run inside it.
 *
 * The measurement stops at `budgetMs` of wall time, checked between runs. A workload that has turned quadratic
 * can take a minute per run, and one that keeps the event loop busy (promises settling promises) holds the
 * test's own timeout off until it yields: without the budget, every warm-up and pair would still run before the
 * test could fail. Past the budget, the median of the pairs timed so far is returned; with no pair timed yet,
 * the measurement throws, naming the runs that took the time.
 */
export const pairedCostRatio = async (
  run: (size: number) => Promise<unknown>,
  small: number,
  large: number,
  {
    warmups = 3,
    rounds = 7,
    budgetMs = defaultBudgetMs,
  }: { readonly warmups?: number; readonly rounds?: number; readonly budgetMs?: number } = {},
): Promise<number> => {
  const started = performance.now();
  const runs: string[] = [];
  const timed = async (size: number) => {
    const from = performance.now();
    await run(size);
    runs.push(`${size}: ${Math.round(performance.now() - from)} ms`);
  };
  const overBudget = () => performance.now() - started > budgetMs;
  const cost = async (size: number) => {
    collectGarbage();
    const before = threadCpuMicros();
    await timed(size);
    return threadCpuMicros() - before;
  };
  const ratios: number[] = [];
  const result = (): number => {
    if (ratios.length === 0)
      throw new Error(
        `the runs took ${Math.round(performance.now() - started)} ms, past the ${budgetMs} ms budget, before one ` +
          `pair was timed (${runs.join(", ")}): far more than a cost that grows in step with the size would take`,
      );
    ratios.sort((a, b) => a - b);
    return ratios[Math.floor(ratios.length / 2)] as number;
  };
  for (let round = 0; round < warmups; round += 1) {
    await timed(small);
    if (overBudget()) return result();
    await timed(large);
    if (overBudget()) return result();
  }
  for (let round = 0; round < rounds; round += 1) {
    if (round % 2 === 0) {
      const fewer = await cost(small);
      ratios.push((await cost(large)) / fewer);
    } else {
      const more = await cost(large);
      ratios.push(more / (await cost(small)));
    }
    if (overBudget()) break;
  }
  return result();
};

/**
 * Wall time a measurement may take before it stops. The doubling tests take 4-9 s each on a 2-core machine and
 * have a 60 s timeout: half of it leaves a machine three times slower room to finish.
 */
const defaultBudgetMs = 30_000;
