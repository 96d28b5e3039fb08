import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const preload = fileURLToPath(new URL("../bench/libraries/report-cpu-at-exit.mjs", import.meta.url));

/** A worker thread's file, as `eval`'s pool has (a worker from a file loads the process's preloads too). */
const workerFile = join(mkdtempSync(join(tmpdir(), "veracity-cpu-report-")), "worker.mjs");
writeFileSync(
  workerFile,
  `import { parentPort, workerData } from "node:worker_threads";
let sum = 0;
for (let i = 0; i < workerData; i++) sum = (sum + i * 7) % 1000003;
parentPort.postMessage(sum);`,
);
afterAll(() => rmSync(dirname(workerFile), { recursive: true, force: true }));

/**
 * A child that does a fixed amount of arithmetic in a worker thread, then half as much on its main thread
 * (iteration counts, not time: the same work whatever the machine's load), then prints the cores it was told of.
 */
const child = `
const { Worker } = require("node:worker_threads");
const os = require("node:os");
const work = 150_000_000;
const worker = new Worker(${JSON.stringify(workerFile)}, { workerData: 2 * work });
worker.once("exit", () => {
  let sum = 0;
  for (let i = 0; i < work; i++) sum = (sum + i * 7) % 1000003;
  console.log(os.availableParallelism());
});`;

/** Runs the child with the preload to its exit; Node's `execFile` collects both outputs. */
const run = (env: NodeJS.ProcessEnv) =>
  new Promise<{ stdout: string; stderr: string; code: number | null }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", preload, "-e", child],
      { env: { ...process.env, ...env } },
      (error, stdout, stderr) =>
        resolve({
          stdout,
          stderr,
          code: error === null ? 0 : typeof error.code === "number" ? error.code : null,
        }),
    );
  });

const reportOf = (stderr: string) => {
  const lines = stderr.split("\n").filter((line) => line.startsWith("BENCH_CPU "));
  expect(lines).toHaveLength(1);
  return JSON.parse((lines[0] as string).slice("BENCH_CPU ".length)) as {
    userMs: number;
    systemMs: number;
    mainThreadMs?: number;
  };
};

describe("the eval-concurrency bench's CPU report", () => {
  it.runIf(process.platform === "linux")(
    "reports the process's CPU once, at the process's exit and not a worker's, with the main thread's share apart",
    async () => {
      const { stderr, code } = await run({ VERACITY_BENCH_CORES: undefined });
      expect(code).toBe(0);
      const report = reportOf(stderr);
      const total = report.userMs + report.systemMs;
      const main = report.mainThreadMs as number;
      expect(main).toBeGreaterThan(0);
      expect(main).toBeLessThan(total);
      // The worker did twice the main thread's arithmetic: the other threads' share is well above the main's.
      expect(total - main).toBeGreaterThan(1.3 * main);
    },
  );

  it("tells the child the number of cores VERACITY_BENCH_CORES gives", async () => {
    const told = await run({ VERACITY_BENCH_CORES: "7" });
    expect(told.code).toBe(0);
    expect(told.stdout.trim()).toBe("7");
    reportOf(told.stderr);
  });
});
