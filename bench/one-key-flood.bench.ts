/**
 * What one key's flood of concurrent requests leaves for the other keys. A `veracity serve` in its own process
 * (bench-server.ts: a PGlite data directory, the default pool and limits) gets `flooders` clients with one key,
 * each sending distinct real 1 KB / 11 KB `/v1/check` requests back to back (`buildPayloads`), for `seconds`;
 * beside them one client with another user's key sends the same kind of request one at a time.
 *
 * Reported: the flooding key's answers by status and its throughput; the other key's answers by status, p50,
 * p99 and max latency; and, before the flood, the other key's p50 on an idle server.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks npm run bench:one-key-flood -- [flooders, default 600] [seconds, default 15]
 */
import { machineLine } from "./libraries/call-timings.js";
import { buildPayloads } from "./libraries/real-payloads.js";
import { distinctBodies } from "./libraries/server-bodies.js";
import { startServerProcess } from "./libraries/server-process.js";

const args = process.argv.slice(2);
const flooders = Number(args[0] ?? 600);
const seconds = Number(args[1] ?? 15);

const payloads = await buildPayloads();
const bodies = distinctBodies(payloads);
const server = await startServerProcess();
if (server.otherKey === undefined) throw new Error("this build's bench server makes only one key");
const url = `${server.url}/v1/check`;
const headersOf = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

const send = async (key: string) => {
  const started = performance.now();
  try {
    const response = await fetch(url, { method: "POST", headers: headersOf(key), body: bodies.next() });
    await response.arrayBuffer();
    return { status: String(response.status), ms: performance.now() - started };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: cause?.code ?? "failed", ms: performance.now() - started };
  }
};

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]?.toFixed(0) ?? "-";
const summary = (answers: { status: string; ms: number }[]) => {
  const statuses: Record<string, number> = {};
  for (const answer of answers) statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
  const ok = answers
    .filter((answer) => answer.status === "200")
    .map((answer) => answer.ms)
    .sort((a, b) => a - b);
  return {
    answered: Object.entries(statuses)
      .map(([status, count]) => `${count} x ${status}`)
      .join(", "),
    "200 p50 ms": percentile(ok, 0.5),
    "200 p99 ms": percentile(ok, 0.99),
    "200 max ms": percentile(ok, 1),
  };
};

// The other key alone first: what its requests take on an idle server (after the default warm-up).
const idle: { status: string; ms: number }[] = [];
for (let index = 0; index < 100; index += 1) idle.push(await send(server.otherKey));

let running = true;
const flood: { status: string; ms: number }[] = [];
const floodClients = Array.from({ length: flooders }, async () => {
  while (running) {
    const answer = await send(server.key);
    flood.push(answer);
    // A refused request is sent again at once, as an impatient client does.
  }
});
const other: { status: string; ms: number }[] = [];
const otherClient = (async () => {
  // Once the flood has filled the queues.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  while (running) other.push(await send(server.otherKey as string));
})();
await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
running = false;
await Promise.all([...floodClients, otherClient]);
await server.stop();

console.log(machineLine());
console.log(`${flooders} clients with one key for ${seconds} s; one client with another key beside them`);
console.table({
  "other key, idle server": summary(idle),
  "flooding key": {
    ...summary(flood),
    "per second": Math.round(flood.filter((a) => a.status === "200").length / seconds),
  },
  "other key, during the flood": summary(other),
});
