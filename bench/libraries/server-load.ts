import { createRequire } from "node:module";
import type { ServerStats } from "./server-process.js";

/** What the server bench reads of an autocannon result. */
export interface AutocannonResult {
  readonly requests: { readonly average: number; readonly total: number; readonly sent: number };
  readonly latency: {
    readonly p50: number;
    readonly p90: number;
    readonly p99: number;
    readonly max: number;
  };
  readonly errors: number;
  readonly timeouts: number;
  readonly non2xx: number;
}
type Autocannon = (options: object) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/** autocannon posting to `url` for `duration` seconds, each request with the body `next()` makes. */
export const load = (
  url: string,
  headers: Record<string, string>,
  connections: number,
  duration: number,
  next: () => string,
) =>
  autocannon({
    url,
    method: "POST",
    headers,
    connections,
    duration,
    requests: [
      {
        setupRequest: (request: { body?: string }) => {
          request.body = next();
          return request;
        },
      },
    ],
  });

/**
 * An offered load: `rate` POSTs per second for `duration` seconds, each sent at its due time whether or not the
 * ones before have been answered (an open loop, as independent users send), each with a body from `next`.
 * Latency counts from the due time, so a client that falls behind adds its lateness instead of hiding it.
 * autocannon's own `overallRate` sends each second's requests in one burst, one per connection, so its
 * latencies measure the wait behind that burst.
 */
export const offeredLoad = async (
  url: string,
  headers: Record<string, string>,
  rate: number,
  duration: number,
  next: () => string,
): Promise<AutocannonResult> => {
  const interval = 1_000 / rate;
  const count = Math.floor(duration * rate);
  const latencies: number[] = [];
  let errors = 0;
  let non2xx = 0;
  const pending: Promise<void>[] = [];
  const started = performance.now();
  for (let sent = 0; sent < count; sent++) {
    const due = started + sent * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((done) => setTimeout(done, wait));
    pending.push(
      fetch(url, { method: "POST", headers, body: next() }).then(
        async (response) => {
          await response.arrayBuffer();
          if (response.status < 200 || response.status > 299) non2xx += 1;
          latencies.push(performance.now() - due);
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(pending);
  const elapsed = (performance.now() - started) / 1_000;
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0);
  return {
    requests: { average: latencies.length / elapsed, total: latencies.length, sent: count },
    latency: { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: at(1) },
    errors,
    timeouts: 0,
    non2xx,
  };
};

/** One POST: its status, how long the answer took in full, and the answer. */
export const post = async (url: string, headers: Record<string, string>, body: string | Buffer) => {
  const started = performance.now();
  const response = await fetch(url, { method: "POST", headers, body });
  const answer = (await response.json()) as { claims?: unknown[]; passed?: boolean; code?: string };
  return { status: response.status, ms: performance.now() - started, answer };
};

/** POSTs one after the other, each with a body from `next`, until `running()` says stop. */
export const sequentialLoop = async (
  url: string,
  headers: Record<string, string>,
  next: () => Buffer,
  running: () => boolean,
) => {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  while (running()) {
    const sent = await post(url, headers, next()).catch((error: Error) => ({ status: error.message, ms: 0 }));
    latencies.push(sent.ms);
    statuses[sent.status] = (statuses[sent.status] ?? 0) + 1;
  }
  latencies.sort((a, b) => a - b);
  const at = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]?.toFixed(0) ?? "-";
  return { sent: latencies.length, statuses, p50: at(0.5), max: at(1) };
};

/** The figures of one run against one server, as the summary table shows them. */
export const figures = (result: AutocannonResult, stats: ServerStats | undefined) => ({
  "requests/s (mean)": result.requests.average.toFixed(1),
  "latency p50 ms": result.latency.p50,
  "latency p90 ms": result.latency.p90,
  "latency p99 ms": result.latency.p99,
  "latency max ms": result.latency.max,
  requests: result.requests.total,
  // Requests in flight when the run ended (one per connection at most, unless some wait behind a large one).
  "unanswered at the end": result.requests.sent - result.requests.total,
  errors: result.errors,
  timeouts: result.timeouts,
  "non-2xx": result.non2xx,
  "server CPU ms per request (all threads)":
    stats?.cpuSeconds === undefined || result.requests.total === 0
      ? "?"
      : ((stats.cpuSeconds * 1000) / result.requests.total).toFixed(3),
  "of which the main thread's":
    stats?.mainThreadCpuSeconds === undefined || result.requests.total === 0
      ? "?"
      : ((stats.mainThreadCpuSeconds * 1000) / result.requests.total).toFixed(3),
  "server event-loop delay p99 / max ms": stats?.loopDelayMs
    ? `${stats.loopDelayMs.p99} / ${stats.loopDelayMs.max}`
    : "?",
  "server resident MB at the end / peak": stats?.memory
    ? `${stats.memory.residentMb} / ${stats.memory.peakResidentMb}${stats.memory.peakSince === "start" ? " (since its start)" : ""}`
    : "?",
});
