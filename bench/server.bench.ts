/**
 * Load benchmark of `POST /v1/check` over loopback: 50 connections (BENCH_CONNECTIONS) for 20 s per measured
 * phase (BENCH_DURATION_S) after a 5 s warm-up (BENCH_WARMUP_S), autocannon in this process and each server in
 * its own process (src/server/testing/bench-server.ts).
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks node --import tsx bench/server.bench.ts
 *
 * What is sent (BENCH_PAYLOAD):
 * - `distinct` (default): real text, answers of about 1 KB against about 10 KB of sources cut from the labelled
 *   sets (bench/libraries/real-payloads.ts), every request a body no earlier request sent, so no cache of the
 *   server can answer it (how: bench/libraries/server-bodies.ts; the run prints how many distinct bodies there
 *   are and says so if it sent more). Bars (issue 21): >= 1,000 requests/s, p99 < 50 ms, no errors.
 *   BENCH_ORDER: `mixed` (default) sends the payloads in a seeded shuffle, the labelled sets interleaved;
 *   `sets` sends them set after set, as runs before 2026-11-27 did (a burst of table-heavy payloads every cycle).
 * - `recurring`: a cache's scenario, labelled so: 100 of the payloads' answers, each with its own sources but one
 *   swapped for a document drawn from all of theirs, in a new order (bench/libraries/recurring-documents.ts), so
 *   no evidence set repeats and its documents do, as a retrieval system hands them out. No bar.
 *   BENCH_RECURRING_PAYLOADS sets how many payloads (default 100; all 226 hold more documents than one worker's
 *   caches keep).
 * - `synthetic-repeated`: the earlier payload, report-like synthetic text of the same sizes, the same body on
 *   every request (the server then answers partly from its caches). Bars (issue 9): >= 300 requests/s,
 *   p99 < 100 ms, no errors.
 *
 * Added phases, each as long as the first and in the same run:
 * - BENCH_LARGE=1: a second phase with a loop beside the load that sends, one after the other, a
 *   BENCH_LARGE_MB (default 10) MB request: a 1 KB answer against the labelled sets' contexts cycled to that
 *   size, in sources of at most 1,000,000 characters (one source's input limit; a request's sources sent
 *   inline are bounded by the body limit alone). The bench servers' body limit is raised to fit (said in the
 *   output). Bar: small requests' p99 with the loop <= 2x the plain phase's. autocannon counts only the requests
 *   answered within the phase: those still waiting behind a large one when it ends are in neither `requests` nor
 *   the latencies. With BENCH_RATES too, one more phase: the first rate offered with the loop beside it, its
 *   small requests' p99 printed against that rate's alone (below saturation, where a request's latency is its own
 *   work and not the wait behind the other connections).
 * - BENCH_INSTANCES=N with BENCH_DATABASE_URL=postgres://...: N servers on that PostgreSQL (a fresh schema,
 *   dropped at the end), one API key valid on all (the first server mints it, the others read it from the shared
 *   database); a phase drives them all at once, BENCH_CONNECTIONS / N connections each, beside the first phase
 *   (one instance on the same database, the others idle). BENCH_DATABASE_URL alone puts one server on PostgreSQL.
 *
 * - BENCH_RATES=100,200: a phase per rate, each sending that many requests per second at even intervals, whether
 *   or not the earlier ones are answered (`offeredLoad`; 50 connections answered as fast as the server can are
 *   a saturating load, whose latency is mostly the wait behind the other 49): below what the server carries, a
 *   request's latency is its own work. Latency counts from each request's due time.
 *
 * Beside them, unless BENCH_BASELINE=0: the same bodies, connections and duration against a plain `node:http`
 * server that parses each body and answers (bench/libraries/baseline-server.ts), once the Veracity servers have
 * stopped: what this machine gives any Node program answering these requests, and the first phase's share of it.
 *
 * BENCH_ROUTE=verify sends the same bodies to `POST /v1/verify` instead (every configured layer; with no model and
 * no evidence store, the same offline layers as `/v1/check`), and BENCH_REPOSITORY=<dir> starts the servers with
 * that git repository (`--repository`), so `/v1/verify` checks its citations too.
 *
 * BENCH_ROUNDS repeats the first phase (the last round is reported); BENCH_VERIFY_WORKERS sets the servers'
 * worker pools; BENCH_SERVER_SCRIPT, BENCH_SERVER_NODE_ARGS and BENCH_SERVER_STDOUT as in server-process.ts.
 */

import { randomBytes } from "node:crypto";
import { cpus, loadavg } from "node:os";
import pg from "pg";
import { defaultServerLimits } from "../src/server/deps.js";
import { startBaselineServer } from "./libraries/baseline-server.js";
import { cacheLineOf } from "./libraries/cache-metrics.js";
import { buildPayloads, largeSources, type Payload } from "./libraries/real-payloads.js";
import { recurringDocuments } from "./libraries/recurring-documents.js";
import { distinctBodies, largeBodies, syntheticPayload } from "./libraries/server-bodies.js";
import {
  type AutocannonResult,
  figures,
  load,
  offeredLoad,
  post,
  sequentialLoop,
} from "./libraries/server-load.js";
import { type ServerProcess, startServerProcess } from "./libraries/server-process.js";

const durationSeconds = Number(process.env.BENCH_DURATION_S ?? 20);
const warmupSeconds = Number(process.env.BENCH_WARMUP_S ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const offeredRates = (process.env.BENCH_RATES ?? "")
  .split(",")
  .filter((rate) => rate.trim() !== "")
  .map(Number);
if (offeredRates.some((rate) => !(rate > 0))) throw new Error("BENCH_RATES is a list of positive numbers");
const mode = process.env.BENCH_PAYLOAD ?? "distinct";
if (mode !== "distinct" && mode !== "synthetic-repeated" && mode !== "recurring")
  throw new Error(`BENCH_PAYLOAD is distinct, recurring or synthetic-repeated, not ${mode}`);
const order = process.env.BENCH_ORDER ?? "mixed";
if (order !== "mixed" && order !== "sets") throw new Error(`BENCH_ORDER is mixed or sets, not ${order}`);
const largeMegabytes = process.env.BENCH_LARGE === "1" ? Number(process.env.BENCH_LARGE_MB ?? 10) : 0;
const route = process.env.BENCH_ROUTE ?? "check";
if (route !== "check" && route !== "verify") throw new Error(`BENCH_ROUTE is check or verify, not ${route}`);
const routePath = `/v1/${route}`;
const repository = process.env.BENCH_REPOSITORY;
const instances = Math.max(1, Number(process.env.BENCH_INSTANCES ?? 1));
const databaseUrl = process.env.BENCH_DATABASE_URL;
if (instances > 1 && !/^postgres(ql)?:\/\//.test(databaseUrl ?? ""))
  throw new Error("BENCH_INSTANCES > 1 needs BENCH_DATABASE_URL=postgres://... (the servers share it)");

// The bodies: distinct real payloads, their documents in new combinations, or the synthetic one repeated.
const payloads: Payload[] = mode === "synthetic-repeated" ? [syntheticPayload()] : await buildPayloads();
const repeated = JSON.stringify(payloads[0]);
const recurringPayloads = Number(process.env.BENCH_RECURRING_PAYLOADS ?? 100);
if (!(recurringPayloads >= 1)) throw new Error("BENCH_RECURRING_PAYLOADS is a count of 1 or more");
const recurring = mode === "recurring" ? recurringDocuments(payloads, recurringPayloads) : undefined;
let recurringBuilt = 0;
const bodies =
  mode === "distinct"
    ? distinctBodies(payloads, order)
    : recurring
      ? {
          payloads: recurring.payloads.length,
          distinct: Number.POSITIVE_INFINITY,
          built: () => recurringBuilt,
          next: () => recurring.next(recurringBuilt++),
        }
      : { payloads: 1, distinct: 1, built: () => 0, next: () => repeated };
const large =
  largeMegabytes > 0
    ? largeBodies((payloads[0] as Payload).text, await largeSources(largeMegabytes * 1_000_000))
    : undefined;

// A fresh schema on the PostgreSQL, when one is named.
const admin = async (statement: string) => {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(statement).finally(() => client.end());
};
const schema = databaseUrl ? `veracity_bench_${randomBytes(4).toString("hex")}` : undefined;
if (schema) await admin(`CREATE SCHEMA ${schema}`);
const serverEnv: Record<string, string> = {
  ...(repository ? { BENCH_REPOSITORY: repository } : {}),
  ...(databaseUrl && schema ? { BENCH_DATABASE: databaseUrl, BENCH_DATABASE_SCHEMA: schema } : {}),
  ...(large && large.bytes + 1_024 > defaultServerLimits.maxBodyBytes
    ? { BENCH_MAX_BODY_BYTES: String(large.bytes + 1_024) }
    : {}),
};
// One after the other: each migrates the shared schema as it starts.
const servers: ServerProcess[] = [];
for (let index = 0; index < instances; index++) servers.push(await startServerProcess(serverEnv));
const first = servers[0] as ServerProcess;
const check = (server: ServerProcess) => `${server.url}${routePath}`;
// The first server's key for all: they share the database its key is kept in.
const headers = { authorization: `Bearer ${first.key}`, "content-type": "application/json" };
console.log(
  `server: node ${first.script} x ${servers.length}, database: ${schema ? `PostgreSQL, schema ${schema}` : "PGlite in a temporary directory"}`,
);
if (serverEnv.BENCH_MAX_BODY_BYTES)
  console.log(
    `body limit of the bench servers raised to ${serverEnv.BENCH_MAX_BODY_BYTES} bytes (default ${defaultServerLimits.maxBodyBytes}) for the large requests`,
  );
for (const [index, server] of servers.entries()) {
  const probe = await post(check(server), headers, bodies.next());
  if (probe.status !== 200)
    throw new Error(`probe of server ${index + 1}: ${probe.status} ${JSON.stringify(probe.answer)}`);
  console.log(
    `probe of server ${index + 1}: ${probe.status}, ${probe.answer.claims?.length ?? 0} claims, passed=${probe.answer.passed}`,
  );
}
const mean = (values: number[]) => (values.reduce((sum, value) => sum + value, 0) / values.length).toFixed(0);
console.log(
  recurring
    ? `payload: recurring documents (a cache's scenario): ${recurring.payloads.length} payloads' answers, each with its sources but one swapped for a document drawn from their ${recurring.documents.length} documents (${recurring.documentChars.toLocaleString("en")} characters), reshuffled: no set repeats, its documents do`
    : mode === "distinct"
      ? `payload: distinct real text, ${bodies.payloads} payloads, ${order === "mixed" ? "the sets interleaved" : "set after set"} (answer ${mean(payloads.map((p) => p.text.length))} chars, sources ${mean(payloads.map((p) => p.sources.join("").length))} chars on average) x notes = ${bodies.distinct.toLocaleString("en")} distinct bodies`
      : `payload: synthetic-repeated, answer ${payloads[0]?.text.length} chars, sources ${payloads[0]?.sources[0]?.length} chars, one body sent every time`,
);
if (large) {
  const probe = await post(check(first), headers, large.next());
  console.log(
    `large request: ${(large.bytes / 1e6).toFixed(1)} MB body; probe ${probe.status}${probe.answer.code ? ` ${probe.answer.code}` : ""} in ${probe.ms.toFixed(0)} ms`,
  );
}

// When a run stops, its last requests are still queued in the server (autocannon drops them, the server still
// checks them): a run started at once would queue its first ones behind them. A pause lets them finish: a
// second, and the time the last run's rate takes to answer what it left (which matters on a slow machine).
let backlogSeconds = 0;
const drained = (results: AutocannonResult[]) => {
  const backlogs = results.map((r) => (r.requests.sent - r.requests.total) / Math.max(1, r.requests.average));
  backlogSeconds = Math.min(30, Math.max(0, ...backlogs));
  return results;
};
const settle = () => new Promise((done) => setTimeout(done, 1_000 + backlogSeconds * 1_000));
/** One measured run against `targets` at once, connections shared among them, the large loop beside it if asked. */
const phase = async (targets: ServerProcess[], withLarge = false, rate?: number) => {
  await settle();
  await Promise.all(targets.map((server) => server.mark())); // the servers' CPU and event-loop figures count from here
  let running = true;
  const largeRun =
    withLarge && large ? sequentialLoop(check(first), headers, large.next, () => running) : undefined;
  const clients = Math.max(1, Math.round(connections / targets.length));
  const results = drained(
    await Promise.all(
      targets.map((server) =>
        rate === undefined
          ? load(check(server), headers, clients, durationSeconds, bodies.next)
          : offeredLoad(check(server), headers, rate / targets.length, durationSeconds, bodies.next),
      ),
    ),
  );
  running = false;
  const stats = await Promise.all(targets.map((server) => server.mark()));
  return { results, stats, large: await largeRun };
};

// Warm-up at the measured load (not reported), so the runs measure servers whose hot code is compiled.
const warmupClients = Math.max(1, Math.round(connections / servers.length));
drained(
  await Promise.all(
    servers.map((server) => load(check(server), headers, warmupClients, warmupSeconds, bodies.next)),
  ),
);
let plain = await phase([first]);
for (let round = 1; round < rounds; round++) {
  const r = plain.results[0] as AutocannonResult;
  console.log(
    `round ${round}: ${r.requests.average.toFixed(1)} req/s, p50 ${r.latency.p50}, p99 ${r.latency.p99}, max ${r.latency.max}`,
  );
  plain = await phase([first]);
}
const offered: { rate: number; run: Awaited<ReturnType<typeof phase>> }[] = [];
for (const rate of offeredRates) offered.push({ rate, run: await phase([first], false, rate) });
const withLarge = large ? await phase([first], true) : undefined;
// Below saturation a request's latency is its own work, so what a large request does to small ones shows there
// (at saturation the wait behind the other 49 connections hides it): the first offered rate again, the loop beside it.
const firstRate = offered[0];
const offeredWithLarge = large && firstRate ? await phase([first], true, firstRate.rate) : undefined;
const together = servers.length > 1 ? await phase(servers) : undefined;
// What the first server's caches did over the whole run, warm-up included.
const cacheLine = await cacheLineOf(first.url);
for (const server of servers) await server.stop();
if (schema) await admin(`DROP SCHEMA ${schema} CASCADE`);

// The baseline, alone on the machine now: a warm-up as the servers had, then one phase as long as theirs.
const baseline = process.env.BENCH_BASELINE === "0" ? undefined : await startBaselineServer();
let baselineResult: AutocannonResult | undefined;
if (baseline) {
  await load(baseline.url, headers, connections, warmupSeconds, bodies.next);
  await settle();
  baselineResult = await load(baseline.url, headers, connections, durationSeconds, bodies.next);
  await baseline.stop();
}

const plainResult = plain.results[0] as AutocannonResult;
const columns: Record<string, ReturnType<typeof figures>> = {
  [servers.length > 1 ? "1 instance" : "plain"]: figures(plainResult, plain.stats[0]),
};
for (const { rate, run } of offered)
  columns[`${rate} req/s offered`] = figures(run.results[0] as AutocannonResult, run.stats[0]);
if (withLarge)
  columns["with large loop"] = figures(withLarge.results[0] as AutocannonResult, withLarge.stats[0]);
if (offeredWithLarge && firstRate)
  columns[`${firstRate.rate} req/s offered, large loop`] = figures(
    offeredWithLarge.results[0] as AutocannonResult,
    offeredWithLarge.stats[0],
  );
together?.results.forEach((result, index) => {
  columns[`instance ${index + 1} of ${servers.length}`] = figures(result, together.stats[index]);
});
if (baselineResult) columns["baseline: node:http + JSON.parse"] = figures(baselineResult, undefined);
// One row per figure, one column per phase (and per instance).
const rows: Record<string, Record<string, string | number>> = {};
for (const [name, column] of Object.entries(columns))
  for (const [figure, value] of Object.entries(column)) rows[figure] = { ...rows[figure], [name]: value };
console.log(
  `POST ${routePath}${repository ? ` (repository ${repository})` : ""}, ${connections} connections, ${durationSeconds} s per phase, ${mode}, Node ${process.version}, ${cpus().length} cores, load average (1 min) at the end ${loadavg()[0]?.toFixed(2)}, ${new Date().toISOString()}`,
);
console.table(rows);
if (together) {
  const sum = (pick: (result: AutocannonResult) => number) =>
    together.results.reduce((total, result) => total + pick(result), 0);
  console.log(
    `${servers.length} instances at once: ${sum((r) => r.requests.average).toFixed(1)} requests/s combined, ${sum((r) => r.requests.total)} requests (one instance alone, same database: ${plainResult.requests.average.toFixed(1)} requests/s)`,
  );
}
if (baselineResult)
  console.log(
    `${servers.length > 1 ? "one instance" : "plain"} against the baseline (node:http + JSON.parse of the same bodies, same connections): ${(plainResult.requests.average / baselineResult.requests.average).toFixed(4)} of its requests/s; p99 ${plainResult.latency.p99} against ${baselineResult.latency.p99} ms`,
  );
for (const [run, label] of [
  [withLarge, "beside the load"],
  [offeredWithLarge, `beside ${firstRate?.rate} req/s offered`],
] as const) {
  if (!run?.large || !large) continue;
  const { sent, statuses, p50, max } = run.large;
  console.log(
    `large requests (${(large.bytes / 1e6).toFixed(1)} MB) ${label}: ${sent} sent, statuses ${JSON.stringify(statuses)}, latency p50 ${p50} ms, max ${max} ms`,
  );
}
const built = bodies.built();
if (mode === "distinct")
  console.log(
    built > bodies.distinct
      ? `bodies repeat: ${built} built (warm-up included) for ${bodies.distinct} distinct`
      : `${built} bodies built (warm-up included), every one distinct (${bodies.distinct.toLocaleString("en")} exist)`,
  );

const [minimumRate, p99Bar] = mode === "distinct" ? [1_000, 50] : [300, 100];
const smallRuns = [plain, withLarge, offeredWithLarge, together].flatMap((run) => run?.results ?? []);
// The recurring scenario has no bar of its own: only the errors are judged.
const bars: [string, boolean][] = [
  ...(recurring
    ? []
    : ([
        [`requests/s >= ${minimumRate.toLocaleString("en")}`, plainResult.requests.average >= minimumRate],
        [`p99 < ${p99Bar} ms`, plainResult.latency.p99 < p99Bar],
      ] as [string, boolean][])),
  ["no errors, timeouts or non-2xx", smallRuns.every((r) => r.errors + r.timeouts + r.non2xx === 0)],
];
if (withLarge) {
  const loaded = withLarge.results[0] as AutocannonResult;
  bars.push([
    `p99 with the large loop <= 2x plain (${loaded.latency.p99} against ${plainResult.latency.p99} ms, ${loaded.requests.total} requests answered)`,
    loaded.requests.total > 0 && loaded.latency.p99 <= 2 * plainResult.latency.p99,
  ]);
}
if (offeredWithLarge && firstRate) {
  // Not the issue's bar (that one is at saturation): the same ratio where latency is each request's own work.
  const loaded = offeredWithLarge.results[0] as AutocannonResult;
  const alone = firstRate.run.results[0] as AutocannonResult;
  console.log(
    `at ${firstRate.rate} req/s offered, small requests' p99 with the large loop: ${loaded.latency.p99} against ${alone.latency.p99} ms without (${(loaded.latency.p99 / alone.latency.p99).toFixed(2)}x)`,
  );
}
console.log(`the first server's caches, look-ups answered over the whole run (its /metrics): ${cacheLine}`);
for (const [bar, met] of bars) console.log(`${met ? "PASS" : "FAIL"} ${bar}`);
process.exitCode = bars.every(([, met]) => met) ? 0 : 1;
