/**
 * `veracity mcp --http` under concurrent clients, verifying in its own thread (`--verify-workers 0`) against the
 * default worker pool (`--verify-workers` unset: two workers on two cores), the two alternating round after
 * round. Each server is the built CLI (`npm run build` first), started with its default warm-up, which runs
 * before it listens.
 *
 * Each round, for each server and each count of clients (`--clients`, default 2 then 16), two phases of
 * `--seconds` (default 15):
 *   - small: that many loops, each sending `verify` calls back to back over keep-alive, distinct
 *     real payloads (about 1 KB of answer against 11 KB of sources from the dev sets, each body a new one: a
 *     payload with a note naming the call appended to its last source, as the server bench's bodies);
 *   - beside a large call: the same loops, and one more that sends `verify` calls of about 3 MB of real sources
 *     (under the MCP endpoint's 4 MiB body limit; past the pool's 1,000,000-character large-call threshold),
 *     each with a distinct note, one after the other (its first 14 of 15 sources are the same texts every time,
 *     as in the server bench's large bodies, so the large-call worker may keep them indexed).
 * Calls are JSON-RPC `tools/call` POSTs to the stateless endpoint, sent with `fetch` (no MCP client object, so
 * the load generator's own work stays small). Reported per phase: small calls answered per second, their p50
 * and p99, the large calls answered, the server process's CPU time (every thread) per call answered, and errors.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks node --import tsx bench/mcp-http-workers.bench.ts [rounds, default 2]
 *     [--seconds <n>] [--clients <n>[,<n>...]] [--workers 0,default (the --verify-workers values compared)]
 */
import { join } from "node:path";
import { machineLine } from "./libraries/call-timings.js";
import { startMcpHttp } from "./libraries/mcp-process.js";
import { buildPayloads, largeSources } from "./libraries/real-payloads.js";
import { distinctBodies, largeBodies } from "./libraries/server-bodies.js";
import { median, percentile } from "./libraries/statistics.js";

const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const seconds = flag("--seconds", 15);
// Comma-separated: each count of clients is its own pair of phases on the same server.
const clientCounts = (args.includes("--clients") ? String(args[args.indexOf("--clients") + 1]) : "2,16")
  .split(",")
  .map(Number);
const flagValues = new Set(
  ["--seconds", "--clients", "--workers"].map((name) => args[args.indexOf(name) + 1]),
);
// `--workers 0,default`: the `--verify-workers` values compared ("default": the flag left out).
const modes = (args.includes("--workers") ? String(args[args.indexOf("--workers") + 1]) : "0,default")
  .split(",")
  .map((mode) => (mode === "default" ? undefined : mode));
const rounds = Number(args.find((arg) => /^\d+$/.test(arg) && !flagValues.has(arg)) ?? 2);
const cli = join(import.meta.dirname, "../dist/cli/main.js");

/** The built CLI serving MCP over HTTP without keys; resolves with its endpoint once it listens (after its warm-up). */
const startMcp = (workers: string | undefined) =>
  startMcpHttp(cli, [
    "--insecure-no-auth",
    "--user",
    "bench",
    ...(workers === undefined ? [] : ["--verify-workers", workers]),
  ]);

type McpServerProcess = Awaited<ReturnType<typeof startMcp>>;

let callId = 0;
/** One `tools/call` of `verify` whose arguments are the JSON object `argumentsJson`; rejects on any error. */
const callVerify = async (url: string, argumentsJson: string | Buffer) => {
  const body = Buffer.concat([
    Buffer.from(
      `{"jsonrpc":"2.0","id":${++callId},"method":"tools/call","params":{"name":"verify","arguments":`,
    ),
    Buffer.isBuffer(argumentsJson) ? argumentsJson : Buffer.from(argumentsJson),
    Buffer.from("}}"),
  ]);
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`);
  if (/"isError":true/.test(text) || /"error":\{/.test(text.slice(0, 200)))
    throw new Error(`verify failed: ${text.slice(0, 300)}`);
};

const payloads = await buildPayloads();
const small = distinctBodies(payloads);
// The MCP tools take sources of at most 200,000 characters each (`mcpLimits`): the large sources are cut so.
const mcpSourceChars = 200_000;
const large = largeBodies(
  (payloads[0] as (typeof payloads)[number]).text,
  (await largeSources(3_000_000)).flatMap((source) =>
    Array.from({ length: Math.ceil(source.length / mcpSourceChars) }, (_, part) =>
      source.slice(part * mcpSourceChars, (part + 1) * mcpSourceChars),
    ),
  ),
);

const phase = async (server: McpServerProcess, clients: number, withLarge: boolean) => {
  const url = server.url;
  const cpuBefore = server.cpuMs();
  const until = performance.now() + seconds * 1000;
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let largeAnswered = 0;
  const loop = async () => {
    while (performance.now() < until) {
      const body = small.next();
      const started = performance.now();
      try {
        await callVerify(url, body);
        latencies.push(performance.now() - started);
      } catch (error) {
        errors += 1;
        firstError ??= String(error);
      }
    }
  };
  const largeLoop = async () => {
    while (performance.now() < until) {
      try {
        await callVerify(url, large.next());
        largeAnswered += 1;
      } catch (error) {
        errors += 1;
        firstError ??= String(error);
      }
    }
  };
  const started = performance.now();
  await Promise.all([...Array.from({ length: clients }, loop), ...(withLarge ? [largeLoop()] : [])]);
  const elapsed = (performance.now() - started) / 1000;
  return {
    perSecond: latencies.length / elapsed,
    cpuPerCall: (server.cpuMs() - cpuBefore) / (latencies.length + largeAnswered),
    p50: median(latencies),
    p99: percentile(latencies, 99),
    largeAnswered,
    errors,
    firstError,
  };
};

console.log(machineLine());
console.log(
  `${clientCounts.join(" then ")} clients, ${seconds} s phases; ${small.payloads} real payloads, each body distinct; large calls of ${(large.bytes / 1e6).toFixed(1)} MB`,
);
console.log(
  "| round | verify workers | warm-up | clients | phase | small calls/s | p50 ms | p99 ms | large calls | server CPU ms per call | errors |",
);
console.log("|---|---|---|---|---|---|---|---|---|---|---|");
for (let round = 1; round <= rounds; round++)
  for (const workers of round % 2 === 1 ? modes : [...modes].reverse()) {
    const server = await startMcp(workers);
    try {
      for (const clients of clientCounts)
        for (const withLarge of [false, true]) {
          const result = await phase(server, clients, withLarge);
          console.log(
            `| ${round} | ${workers ?? "default"} | ${server.warmed} | ${clients} | ${withLarge ? "beside a large call" : "small"} | ${result.perSecond.toFixed(1)} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | ${withLarge ? result.largeAnswered : "-"} | ${result.cpuPerCall.toFixed(2)} | ${result.errors}${result.firstError === undefined ? "" : ` (${result.firstError.slice(0, 120)})`} |`,
          );
        }
    } finally {
      await server.stop();
    }
  }
