/**
 * What V8's optimising compiler costs in `veracity eval`, as a user runs it: the built CLI over the labelled
 * sets in one thread, traced (`--trace-opt --trace-deopt-verbose`). Reports the compilations and their time,
 * the deoptimisations by reason, what the recompiling they caused cost, and the places (function, reason and
 * source position) that caused the most, then the functions that took the most compiling.
 *
 * Why it matters: each worker thread compiles the verifier again for itself, so with M the verifying work and C
 * one thread's compiling, two workers on two cores take at least M/2 + C against M for one thread. How far
 * `eval --concurrency 2` can get on a small machine depends on C, which this measures (the tracing slows the
 * compiler, so its times are higher than an untraced run's; compare traced runs with each other).
 *
 *   npm run build && VERACITY_DATASETS_DIR=../shared/benchmarks npm run bench:compile-cost [-- --top N] [FILE.jsonl...]
 *
 * Default files: every *.jsonl of VERACITY_DATASETS_DIR (the six labelled sets, 13,192 records).
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { machineLine } from "./libraries/call-timings.js";
import { builtCli, labelledFiles } from "./libraries/eval-inputs.js";
import { compileCost, parseV8Trace } from "./libraries/v8-trace.js";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const cli = builtCli();

const args = process.argv.slice(2);
const topAt = args.indexOf("--top");
const top = topAt >= 0 ? Number(args[topAt + 1]) : 15;
// Without a count after it ("--top" alone, or "--top" before a file), every table would come out empty.
if (!Number.isInteger(top) || top < 1) {
  process.stderr.write(
    `--top takes a whole number of rows, 1 or more (got ${args[topAt + 1] ?? "nothing"})\n`,
  );
  process.exit(2);
}
const files = labelledFiles(args);

const out = await mkdtemp(join(tmpdir(), "veracity-compile-cost-"));
const started = performance.now();
const trace = await new Promise<string>((resolve, reject) =>
  execFile(
    process.execPath,
    [
      "--trace-opt",
      "--trace-deopt-verbose",
      cli,
      "eval",
      "--data",
      ...files,
      "--concurrency",
      "1",
      "--quiet",
      "--out",
      out,
    ],
    { maxBuffer: 1024 * 1024 * 1024 },
    (error, stdout) => (error ? reject(error) : resolve(stdout)),
  ),
);
const wallS = (performance.now() - started) / 1000;
await rm(out, { recursive: true, force: true });

const distPrefix = `file://${join(repoRoot, "dist")}/`;
const cost = compileCost(parseV8Trace(trace, (path) => path.replace(distPrefix, "dist/")));
const ms = (value: number) => value.toFixed(0);

console.log(`${machineLine()}; ${files.length} files; traced eval, one thread, ${wallS.toFixed(1)} s`);
console.log(
  `compilations ${cost.compilations} (${ms(cost.compileMs)} ms), deoptimisations ${cost.deoptimisations}, ` +
    `recompiling they caused ${ms(cost.recompileMs)} ms (${((100 * cost.recompileMs) / cost.compileMs).toFixed(0)}% of the compiling)`,
);
console.log("\n| reason | deoptimisations |\n|---|---|");
for (const { reason, count } of cost.reasons) console.log(`| ${reason} | ${count} |`);
console.log(`\n| place (function, reason, where) | times | recompiling ms |\n|---|---|---|`);
for (const place of cost.places.slice(0, top))
  console.log(
    `| ${place.function}, ${place.reason}, ${place.at || "?"} | ${place.count} | ${ms(place.recompileMs)} |`,
  );
console.log(`\n| function | compilations | ms |\n|---|---|---|`);
for (const entry of cost.functions.slice(0, top))
  console.log(`| ${entry.function} | ${entry.count} | ${ms(entry.ms)} |`);
