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
 * A full garbage collection, for a test to call before each timed run: a run then neither pays for the garbage
 * of the one before it nor meets the heap at whatever size makes the collector run (the verifier's, the FIFO
 * semaphore's and the embedded store's doubling tests call it). Without it, the FIFO
 * semaphore's doubling test read 2.4-2.8x on a 2-core machine (the larger run after the smaller one's garbage),
 * with it 1.4-2.1x, over the same code.
 */
export const collectGarbage = runInNewContext("gc") as () => void;
