// Preloaded (`--import`) into a child the eval-concurrency bench runs: prints the process's CPU time, every
// thread's, as one tagged line on stderr at exit, and on Linux the main thread's own (the first field of
// /proc/thread-self/schedstat, nanoseconds on a CPU): the rest is the worker threads' and V8's own threads'
// (its compiler and garbage collector), which run beside the main thread even when nothing else does. With
// VERACITY_BENCH_CORES set, `availableParallelism` reports that many cores, so the bench can run `eval`'s worker
// pool on a machine with fewer cores than it needs.
import { readFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";
import { isMainThread } from "node:worker_threads";

const cores = Number(process.env.VERACITY_BENCH_CORES ?? "");
if (Number.isInteger(cores) && cores > 0) {
  os.availableParallelism = () => cores;
  syncBuiltinESMExports();
}
/** The calling thread's time on a CPU in ms, or undefined where the kernel does not say (not Linux). */
const threadCpuMs = () => {
  try {
    return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
};

// Worker threads load this preload too: only the process's own exit reports.
if (isMainThread)
  process.on("exit", () => {
    const { user, system } = process.cpuUsage();
    const report = { userMs: user / 1000, systemMs: system / 1000, mainThreadMs: threadCpuMs() };
    process.stderr.write(`BENCH_CPU ${JSON.stringify(report)}\n`);
  });
