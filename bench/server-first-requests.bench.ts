/**
 * A new server's first requests: `POST /v1/check` of distinct real payloads (about 1 KB of answer against about
 * 10 KB of sources, the labelled sets interleaved; bench/libraries/server-bodies.ts), sent one at a time from the
 * moment the server says it listens, so each latency is the request's own, with no queue. Each round starts two
 * servers, each in a new process on a new PGlite data directory with the default pool: one with the server's
 * default warm-up before it listens, one with none (`BENCH_WARM_UP_MS=0`), in alternating order.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks node --import tsx bench/server-first-requests.bench.ts [rounds, default 3]
 *     [--warm-up-ms <n>: the warmed server's budget instead of the default]
 *
 * Reported per server: the time from spawning its process to its first line saying it listens, and the latency
 * percentiles of the first half of the payloads and of the second half (no payload is sent twice).
 */
import { machineLine } from "./libraries/call-timings.js";
import { buildPayloads } from "./libraries/real-payloads.js";
import { distinctBodies } from "./libraries/server-bodies.js";
import { post } from "./libraries/server-load.js";
import { startServerProcess } from "./libraries/server-process.js";
import { percentileOfSorted } from "./libraries/statistics.js";

const args = process.argv.slice(2);
const warmUpAt = args.indexOf("--warm-up-ms");
/** The warm arm's budget: the server's default unless `--warm-up-ms` gives one. */
const warmUpMs = warmUpAt >= 0 ? args[warmUpAt + 1] : undefined;
// A number that is not the budget after `--warm-up-ms` (with no such flag, any number is the rounds).
const rounds = Number(
  args.find((arg, at) => /^\d+$/.test(arg) && (warmUpAt < 0 || at !== warmUpAt + 1)) ?? 3,
);
const payloads = await buildPayloads();

const percentiles = (values: readonly number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (p: number) => percentileOfSorted(sorted, p).toFixed(1);
  return `${at(50)} / ${at(90)} / ${at(99)} / ${(sorted.at(-1) ?? 0).toFixed(1)}`;
};

const measure = async (warmUp: boolean) => {
  const started = performance.now();
  const server = await startServerProcess(
    warmUp ? (warmUpMs === undefined ? {} : { BENCH_WARM_UP_MS: warmUpMs }) : { BENCH_WARM_UP_MS: "0" },
  );
  const startMs = performance.now() - started;
  try {
    const bodies = distinctBodies(payloads);
    const headers = { authorization: `Bearer ${server.key}`, "content-type": "application/json" };
    const latencies: number[] = [];
    for (let sent = 0; sent < bodies.payloads; sent++) {
      const answer = await post(`${server.url}/v1/check`, headers, bodies.next());
      if (answer.status !== 200) throw new Error(`status ${answer.status}: ${JSON.stringify(answer.answer)}`);
      latencies.push(answer.ms);
    }
    const half = Math.floor(latencies.length / 2);
    return { startMs, first: latencies.slice(0, half), rest: latencies.slice(half) };
  } finally {
    await server.stop();
  }
};

console.log(`${machineLine()}; ${payloads.length} payloads`);
console.log(
  "| round | warm-up | start ms | first half p50 / p90 / p99 / max ms | second half p50 / p90 / p99 / max ms |",
);
console.log("|---|---|---|---|---|");
for (let round = 1; round <= rounds; round++) {
  for (const warmUp of round % 2 === 1 ? [true, false] : [false, true]) {
    const { startMs, first, rest } = await measure(warmUp);
    console.log(
      `| ${round} | ${warmUp ? (warmUpMs === undefined ? "default" : `${warmUpMs} ms`) : "none"} | ${startMs.toFixed(0)} | ${percentiles(first)} | ${percentiles(rest)} |`,
    );
  }
}
