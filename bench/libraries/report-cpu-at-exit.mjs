// Preloaded (`--import`) into a child the eval-concurrency bench runs: prints the process's CPU time, every
// thread's, as one tagged line on stderr at exit. With VERACITY_BENCH_CORES set, `availableParallelism` reports
// that many cores, so the bench can run `eval`'s worker pool on a machine with fewer cores than it needs.
import { syncBuiltinESMExports } from "node:module";
import os from "node:os";

const cores = Number(process.env.VERACITY_BENCH_CORES ?? "");
if (Number.isInteger(cores) && cores > 0) {
  os.availableParallelism = () => cores;
  syncBuiltinESMExports();
}
process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  process.stderr.write(`BENCH_CPU ${JSON.stringify({ userMs: user / 1000, systemMs: system / 1000 })}\n`);
});
