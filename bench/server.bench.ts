/**
 * Load benchmark of `POST /v1/check` over loopback: a 1 KB answer against 10 KB of sources, 50 connections for
 * 20 s (BENCH_DURATION_S to change), autocannon in this process and the server in its own process.
 * Bars: >= 300 requests/s, p99 < 100 ms, no errors or non-2xx answers.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg } from "node:os";
import { resolve } from "node:path";

interface AutocannonResult {
  readonly requests: { readonly average: number; readonly total: number };
  readonly latency: {
    readonly p50: number;
    readonly p99: number;
    readonly p90: number;
    readonly max: number;
  };
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
  readonly duration: number;
}
type Autocannon = (options: object) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

const repoRoot = resolve(import.meta.dirname, "..");
const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** 10 KB of report-like sources and a 1 KB answer drawn from them, some numbers edited (seeded, deterministic). */
const makePayload = (seed = 42) => {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const subjects = [
    "Revenue",
    "Operating income",
    "Net sales",
    "Gross margin",
    "Headcount",
    "Capital spending",
  ];
  const units = ["North", "South", "Retail", "Wholesale", "Cloud", "Devices", "Services", "Logistics"];
  const verbs = ["rose", "fell", "grew", "declined", "increased", "decreased"];
  const sentence = () =>
    `${pick(subjects)} of the ${pick(units)} division ${pick(verbs)} to $${(random() * 900 + 10).toFixed(1)} million in the ${pick(["first", "second", "third", "fourth"])} quarter of ${2019 + Math.floor(random() * 6)}, according to chief financial officer ${pick(["Dana Okafor", "Lee Park", "Ana Silva"])}.`;
  const sourceSentences: string[] = [];
  while (sourceSentences.join(" ").length < 10_240) sourceSentences.push(sentence());
  const parts: string[] = [];
  while (parts.join(" ").length < 1_024) {
    const picked = pick(sourceSentences);
    parts.push(random() < 0.3 ? picked.replace(/\d/, String(Math.floor(random() * 10))) : picked);
  }
  return { text: parts.join(" ").slice(0, 1_024), sources: [sourceSentences.join(" ").slice(0, 10_240)] };
};

const startServerProcess = () =>
  new Promise<{
    url: string;
    key: string;
    pid: number;
    stop: () => Promise<string>;
  }>((resolvePromise, reject) => {
    // The built server (what `npx veracity serve` runs) when `npm run build` has made it, else the sources via tsx.
    const built = resolve(repoRoot, "dist/server/testing/bench-server.js");
    const script =
      process.env.BENCH_SERVER_SCRIPT ?? (existsSync(built) ? built : "src/server/testing/bench-server.ts");
    const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
    const child = spawn(
      process.execPath,
      [...nodeArgs, ...(script.endsWith(".ts") ? ["--import", "tsx"] : []), script],
      { cwd: repoRoot, stdio: ["ignore", "pipe", "inherit"] },
    );
    console.log(`server: node ${script}`);
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.BENCH_SERVER_STDOUT === "1") process.stderr.write(chunk);
      const match = /READY (\S+) (\S+)/.exec(output);
      if (match?.[1] && match[2])
        resolvePromise({
          url: match[1],
          key: match[2],
          pid: child.pid ?? 0,
          // Resolves with what the server printed after READY (its STATS line).
          stop: () =>
            new Promise((done) => {
              child.removeAllListeners("exit");
              child.once("exit", () => done(output));
              child.kill("SIGTERM");
            }),
        });
    });
    child.once("exit", (code) => reject(new Error(`server exited early (${code}): ${output}`)));
  });

const server = await startServerProcess();
const payload = makePayload();
const body = JSON.stringify(payload);
const request = {
  url: `${server.url}/v1/check`,
  method: "POST",
  headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
  body,
};
const probe = await fetch(request.url, request);
const probeResult = (await probe.json()) as { claims?: unknown[]; passed?: boolean };
console.log(
  `payload: answer ${Buffer.byteLength(payload.text)} B, sources ${Buffer.byteLength(payload.sources[0] ?? "")} B; probe ${probe.status}, ${probeResult.claims?.length ?? 0} claims, passed=${probeResult.passed}`,
);
// Warm-up at the measured load (not reported), so the run measures a server whose hot code is compiled.
await autocannon({ ...request, connections, duration: Number(process.env.BENCH_WARMUP_S ?? 5) });
// When the warm-up stops, its last 50 requests are still queued in the server (autocannon drops them, the server
// still checks them): a run started at once would queue its first 50 behind them (measured: 25-68 of a run's
// ~170 slowest requests fell in its first 250 ms). A second's pause lets the server finish them first.
const settle = () => new Promise((done) => setTimeout(done, 1_000));
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const measured = async () => {
  await settle();
  process.kill(server.pid, "SIGUSR2"); // the server's CPU and event-loop figures count from here
  return autocannon({ ...request, connections, duration: durationSeconds });
};
let result = await measured();
for (let round = 1; round < rounds; round++) {
  console.log(
    `round ${round}: ${result.requests.average.toFixed(1)} req/s, p50 ${result.latency.p50}, p99 ${result.latency.p99}, max ${result.latency.max}`,
  );
  result = await measured();
}
const serverOutput = await server.stop();
const stats = JSON.parse(/STATS (\{.*\})/.exec(serverOutput)?.[1] ?? "{}") as {
  cpuSeconds?: number;
  loopDelayMs?: { p50: number; p99: number; max: number };
};

const rows = {
  "requests/s (mean)": result.requests.average.toFixed(1),
  "latency p50 ms": result.latency.p50,
  "latency p90 ms": result.latency.p90,
  "latency p99 ms": result.latency.p99,
  "latency max ms": result.latency.max,
  requests: result.requests.total,
  errors: result.errors,
  timeouts: result.timeouts,
  "non-2xx": result.non2xx,
  "server CPU ms per request (all threads)":
    stats.cpuSeconds === undefined ? "?" : ((stats.cpuSeconds * 1000) / result.requests.total).toFixed(3),
  "server event-loop delay p99 / max ms": stats.loopDelayMs
    ? `${stats.loopDelayMs.p99} / ${stats.loopDelayMs.max}`
    : "?",
  "load average (1 min) at the end": loadavg()[0]?.toFixed(2) ?? "?",
};
console.log(
  `POST /v1/check, ${connections} connections, ${durationSeconds} s, Node ${process.version}, ${cpus().length} cores, ${new Date().toISOString()}`,
);
console.table(rows);
const bars = [
  ["requests/s >= 300", result.requests.average >= 300],
  ["p99 < 100 ms", result.latency.p99 < 100],
  ["no errors, timeouts or non-2xx", result.errors + result.timeouts + result.non2xx === 0],
] as const;
for (const [bar, met] of bars) console.log(`${met ? "PASS" : "FAIL"} ${bar}`);
process.exitCode = bars.every(([, met]) => met) ? 0 : 1;
