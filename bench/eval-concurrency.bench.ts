/**
 * `veracity eval --concurrency 2` against `--concurrency 1`, as a user runs it: the built CLI over the labelled
 * sets, each run a new process, the runs alternating. Reports each run's wall time and CPU time (every thread of
 * the process), split on Linux into the main thread's and the other threads' (the pool's workers, and V8's own
 * threads, whose compiling and collecting run beside the main thread even in a run without workers), the ratio
 * of the medians, and whether the two wrote the same predictions (every column but `latency_ms`). On a machine
 * with fewer than three cores `eval` verifies in its own thread whatever N is (a worker pool paid more in
 * compiling than it gained there); the bench then also runs `--concurrency 2` with the pool forced (the child is
 * told it has three cores), labelled so.
 *
 * Beside them, the machine's own ceiling for two threads, so the ratio can be compared across machines: a fixed,
 * allocating JavaScript job (string keys counted in a Map) done twice in one worker thread against once in each
 * of two, started at once. A run of plain JavaScript on two threads gets this much from the second core; the
 * verifier cannot get more.
 *
 * `--control` adds the same runs again with V8's optimising compiler turned off (`node --no-opt`), labelled so:
 * each isolate then compiles almost nothing, so the pair shows what the pool gains on this machine when its
 * workers do not each compile the verifier afresh (slower runs, but a cleaner ratio of the two).
 *
 *   npm run build && VERACITY_DATASETS_DIR=../shared/benchmarks node --import tsx bench/eval-concurrency.bench.ts [rounds, default 3] [--control] [FILE.jsonl...]
 *
 * Default files: every *.jsonl of VERACITY_DATASETS_DIR (the six labelled sets, 13,192 records).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { machineLine } from "./libraries/call-timings.js";
import { parseCsv } from "./libraries/csv.js";
import { builtCli, labelledFiles } from "./libraries/eval-inputs.js";
import { median } from "./libraries/statistics.js";

const cli = builtCli();
const preload = fileURLToPath(new URL("./libraries/report-cpu-at-exit.mjs", import.meta.url));

const args = process.argv.slice(2);
const rounds = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 3);
const files = labelledFiles(args);
const records = files.reduce(
  (sum, file) => sum + readFileSync(file, "utf8").split("\n").filter(Boolean).length,
  0,
);

interface Run {
  readonly wallS: number;
  readonly cpuS: number;
  /** The main thread's share of `cpuS` (NaN where the system does not say). */
  readonly mainThreadS: number;
  /** predictions.csv without its latency column. */
  readonly predictions: string;
}

/** predictions.csv read by fields, without its latency column, one line per record (fields as JSON). */
const withoutLatency = (csv: string): string => {
  const rows = parseCsv(csv);
  const column = (rows[0] ?? []).indexOf("latency_ms");
  return rows.map((row) => JSON.stringify(row.filter((_, index) => index !== column))).join("\n");
};

const runEval = async (
  concurrency: number,
  cores: number | undefined,
  nodeArgs: readonly string[],
): Promise<Run> => {
  const out = await mkdtemp(join(tmpdir(), "veracity-eval-bench-"));
  try {
    const started = performance.now();
    const stderr = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          ...nodeArgs,
          "--import",
          preload,
          cli,
          "eval",
          "--data",
          ...files,
          "--concurrency",
          String(concurrency),
          "--quiet",
          "--out",
          out,
        ],
        {
          stdio: ["ignore", "ignore", "pipe"],
          env: { ...process.env, ...(cores === undefined ? {} : { VERACITY_BENCH_CORES: String(cores) }) },
        },
      );
      let text = "";
      child.stderr.on("data", (chunk) => {
        text += chunk;
      });
      child.on("error", reject);
      child.on("exit", (code) =>
        code === 0 ? resolve(text) : reject(new Error(`eval exited ${code}: ${text}`)),
      );
    });
    const wallS = (performance.now() - started) / 1000;
    const line = stderr.split("\n").find((text) => text.startsWith("BENCH_CPU "));
    const cpu = JSON.parse(line?.slice("BENCH_CPU ".length) ?? "{}") as {
      userMs?: number;
      systemMs?: number;
      mainThreadMs?: number;
    };
    return {
      wallS,
      cpuS: ((cpu.userMs ?? Number.NaN) + (cpu.systemMs ?? Number.NaN)) / 1000,
      mainThreadS: (cpu.mainThreadMs ?? Number.NaN) / 1000,
      predictions: withoutLatency(readFileSync(join(out, "predictions.csv"), "utf8")),
    };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
};

// The machine's ceiling: the same allocating job, twice in one worker against once in each of two.
const ceilingJob = `
const { parentPort, workerData } = require("node:worker_threads");
for (let job = 0; job < workerData; job++) {
  const counts = new Map();
  for (let i = 0; i < 3e6; i++) { const key = "k" + ((i * 7919) % 200000); counts.set(key, (counts.get(key) ?? 0) + 1); }
}
parentPort.postMessage("done");`;
const inWorker = (jobs: number) =>
  new Promise<void>((resolve, reject) => {
    const worker = new Worker(ceilingJob, { eval: true, workerData: jobs });
    worker.once("message", () => void worker.terminate().then(() => resolve()));
    worker.once("error", reject);
  });
const ceiling = async (): Promise<number> => {
  let started = performance.now();
  await inWorker(4);
  const one = performance.now() - started;
  started = performance.now();
  await Promise.all([inWorker(2), inWorker(2)]);
  return one / (performance.now() - started);
};

const cores = availableParallelism();
/**
 * The runs with the given Node options, each ratio against `--concurrency 1` with the same options; on fewer than
 * three cores also `--concurrency 2` with the pool forced.
 */
const variantsWith = (suffix: string, nodeArgs: readonly string[]) =>
  [
    { name: `--concurrency 1${suffix}`, concurrency: 1 },
    { name: `--concurrency 2${suffix}`, concurrency: 2 },
    ...(cores < 3
      ? [
          {
            name: `--concurrency 2, worker pool forced (3 cores reported)${suffix}`,
            concurrency: 2,
            cores: 3,
          },
        ]
      : []),
  ].map((variant) => ({ ...variant, nodeArgs, reference: `--concurrency 1${suffix}` }));
const variants: {
  readonly name: string;
  readonly concurrency: number;
  readonly cores?: number;
  readonly nodeArgs: readonly string[];
  /** The run its ratio is taken against: `--concurrency 1` with the same Node options. */
  readonly reference: string;
}[] = [
  ...variantsWith("", []),
  ...(args.includes("--control") ? variantsWith(" (control: node --no-opt)", ["--no-opt"]) : []),
];
console.log(
  `${machineLine()}; ${files.length} files, ${records} records; ${rounds} rounds, ${new Date().toISOString()}`,
);
const runs = new Map<string, Run[]>(variants.map((variant) => [variant.name, []]));
const ceilings: number[] = [];
for (let round = 0; round < rounds; round++) {
  for (const variant of variants)
    runs.get(variant.name)?.push(await runEval(variant.concurrency, variant.cores, variant.nodeArgs));
  ceilings.push(await ceiling());
}
const predictionsOf = runs.get("--concurrency 1")?.[0]?.predictions;
const seconds = (list: readonly Run[], of: (run: Run) => number) =>
  list.map((run) => of(run).toFixed(1)).join(", ");
console.log(
  "| run | wall s (each run) | CPU s (each run) | of which the main thread's | the other threads' (workers, V8's compiler and collector) | median wall vs --concurrency 1 with the same options | predictions |",
);
console.log("|---|---|---|---|---|---|---|");
for (const variant of variants) {
  const list = runs.get(variant.name) ?? [];
  const baseWall = median((runs.get(variant.reference) ?? []).map((run) => run.wallS));
  const same = list.every((run) => run.predictions === predictionsOf);
  console.log(
    `| ${variant.name} | ${list.map((run) => run.wallS.toFixed(2)).join(", ")} | ${seconds(list, (run) => run.cpuS)} | ${seconds(list, (run) => run.mainThreadS)} | ${seconds(list, (run) => run.cpuS - run.mainThreadS)} | ${(baseWall / median(list.map((run) => run.wallS))).toFixed(2)}x | ${same ? "identical" : "DIFFER"} |`,
  );
}
console.log(
  `| baseline: a JavaScript job on two worker threads against one (the machine's ceiling) | | | | | ${ceilings.map((ratio) => `${ratio.toFixed(2)}x`).join(", ")} (median ${median(ceilings).toFixed(2)}x) | |`,
);
