/**
 * A `veracity serve` for the load benchmark, in its own process: a PGlite data directory in a fresh temporary
 * folder, as `veracity serve` keeps by default (BENCH_DATABASE for another target: `memory://`, a postgres://
 * URL, with BENCH_DATABASE_SCHEMA for its schema as `--db-schema`; BENCH_REPOSITORY for `--repository`), logs at warn level, a rate limit high enough
 * not to interfere unless BENCH_RATE_LIMIT gives one (requests per key per minute), the default body limit unless BENCH_MAX_BODY_BYTES says otherwise, the default warm-up unless
 * BENCH_WARM_UP_MS says otherwise, the default cap on connections per client address (1,000: a bench opening
 * more from this machine's one address needs more) unless BENCH_MAX_CONNECTIONS_PER_ADDRESS says otherwise. Prints
 * `READY <url> <key> <another user's key>` once it listens; SIGTERM stops it.
 * SIGUSR2 starts a measurement and prints one `STATS {json}` line for the one it ends (the first covers the
 * start): the process's CPU time (every thread), its main thread's CPU time (on Linux), event-loop delay, and
 * resident memory at the end with its peak during the measurement (on Linux; elsewhere the peak since the start).
 * SIGTERM prints one too.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pino } from "pino";
import { startServer } from "../start.js";
import { mainThreadCpuSeconds } from "./main-thread-cpu.js";
import { resetResidentPeak, residentMemory } from "./resident-memory.js";

const temporary = process.env.BENCH_DATABASE
  ? undefined
  : mkdtempSync(path.join(tmpdir(), "veracity-bench-"));
const server = await startServer({
  port: 0,
  database: process.env.BENCH_DATABASE ?? path.join(temporary as string, "data"),
  ...(process.env.BENCH_DATABASE_SCHEMA ? { databaseSchema: process.env.BENCH_DATABASE_SCHEMA } : {}),
  // A git repository whose citations `/v1/verify` checks, as `veracity serve --repository`.
  ...(process.env.BENCH_REPOSITORY ? { repositoryDir: process.env.BENCH_REPOSITORY } : {}),
  // The default pool (`defaultVerifyWorkers`) unless BENCH_VERIFY_WORKERS says otherwise (0: in-thread).
  ...(process.env.BENCH_VERIFY_WORKERS === undefined
    ? {}
    : { verifyWorkers: Number(process.env.BENCH_VERIFY_WORKERS) }),
  // The server's default warm-up unless BENCH_WARM_UP_MS says otherwise (0: listen at once).
  ...(process.env.BENCH_WARM_UP_MS === undefined ? {} : { warmUpMs: Number(process.env.BENCH_WARM_UP_MS) }),
  logger: pino({ level: "warn" }),
  limits: {
    rateLimit: { requests: Number(process.env.BENCH_RATE_LIMIT ?? 1_000_000_000), windowMs: 60_000 },
    ...(process.env.BENCH_MAX_BODY_BYTES ? { maxBodyBytes: Number(process.env.BENCH_MAX_BODY_BYTES) } : {}),
    ...(process.env.BENCH_MAX_CONNECTIONS_PER_ADDRESS
      ? { maxConnectionsPerAddress: Number(process.env.BENCH_MAX_CONNECTIONS_PER_ADDRESS) }
      : {}),
  },
});
const key = await server.createApiKey("bench");
// A second user's key, for benches about what one key's load leaves for the others.
const otherKey = await server.createApiKey("bench-other");
process.stdout.write(`READY ${server.url} ${key} ${otherKey}\n`);
const loopDelay = monitorEventLoopDelay({ resolution: 10 });

let cpuAtStart = process.cpuUsage();
let mainThreadAtStart = mainThreadCpuSeconds();
let peakReset = false;
const printStats = () => {
  loopDelay.disable();
  const cpu = process.cpuUsage(cpuAtStart);
  const mainThread = mainThreadCpuSeconds();
  const ms = (nanoseconds: number) => Math.round(nanoseconds / 1e4) / 100;
  const stats = {
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    ...(mainThread === undefined || mainThreadAtStart === undefined
      ? {}
      : { mainThreadCpuSeconds: mainThread - mainThreadAtStart }),
    loopDelayMs: {
      p50: ms(loopDelay.percentile(50)),
      p99: ms(loopDelay.percentile(99)),
      max: ms(loopDelay.max),
    },
    memory: residentMemory(peakReset),
  };
  process.stdout.write(`STATS ${JSON.stringify(stats)}\n`);
};
process.on("SIGUSR2", () => {
  printStats();
  cpuAtStart = process.cpuUsage();
  mainThreadAtStart = mainThreadCpuSeconds();
  peakReset = resetResidentPeak();
  loopDelay.reset();
  loopDelay.enable();
});
process.once("SIGTERM", () => {
  printStats();
  void server.close().then(() => {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
    process.exit(0);
  });
});
