/**
 * What one key's flood of concurrent requests leaves for the other keys. A `veracity serve` in its own process
 * (bench-server.ts: a PGlite data directory, the default pool and limits) gets `flooders` clients with one key,
 * each sending distinct real 1 KB / 11 KB `/v1/check` requests back to back (`buildPayloads`), for `seconds`;
 * beside them one client with another user's key, in a thread of its own, sends the same kind of request one at a
 * time.
 *
 * Reported: the flooding key's answers by status and its throughput; the other key's answers by status, p50,
 * p99 and max latency; and, before the flood, the other key's p50 on an idle server.
 *
 * A flooder refused 429 sends again at once (`at-once`, the default: a client that ignores `retry-after`), or
 * after the second `retry-after` asks for (`retry-after`). The refusals cost the server's thread either way;
 * at once, about 500 requests wait to be read at any moment, and the other key's requests wait behind them.
 *
 * What the flooders present (the fourth argument): `own`, the default, their user's key; `unknown`, a new random
 * key of the right form (`vk_` and 43 characters) on every request, which the server must look up to refuse
 * (401); `malformed`, a key of the wrong form, refused before any lookup.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks npm run bench:one-key-flood -- [flooders, default 600] [seconds, default 15] [at-once | retry-after] [own | unknown | malformed]
 */
import { randomBytes } from "node:crypto";
import { machineLine } from "./libraries/call-timings.js";
import { startOneClient, type TimedAnswer, timedPost } from "./libraries/one-client.js";
import { buildPayloads } from "./libraries/real-payloads.js";
import { distinctBodies } from "./libraries/server-bodies.js";
import { startServerProcess } from "./libraries/server-process.js";
import { percentileOfSorted } from "./libraries/statistics.js";

const args = process.argv.slice(2);
const flooders = Number(args[0] ?? 600);
const seconds = Number(args[1] ?? 15);
const retry = args[2] ?? "at-once";
if (retry !== "at-once" && retry !== "retry-after")
  throw new Error(`retry is at-once or retry-after, not ${retry}`);
const flooderKey = args[3] ?? "own";
if (flooderKey !== "own" && flooderKey !== "unknown" && flooderKey !== "malformed")
  throw new Error(`the flooders' key is own, unknown or malformed, not ${flooderKey}`);

const payloads = await buildPayloads();
const bodies = distinctBodies(payloads);
const server = await startServerProcess();
if (server.otherKey === undefined) throw new Error("this build's bench server makes only one key");
const url = `${server.url}/v1/check`;
const headersOf = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });

/** One request with `key`. */
const send = (key: string) => timedPost(url, headersOf(key), bodies.next());

const at = (sorted: number[], p: number) =>
  sorted.length === 0 ? "-" : percentileOfSorted(sorted, p).toFixed(0);
const summary = (answers: TimedAnswer[]) => {
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
    "200 p50 ms": at(ok, 50),
    "200 p99 ms": at(ok, 99),
    "200 max ms": at(ok, 100),
  };
};

/** The key a flooder's next request presents. */
const keyOfFlooder = (): string => {
  if (flooderKey === "unknown") return `vk_${randomBytes(32).toString("base64url")}`;
  if (flooderKey === "malformed") return `xx_${randomBytes(32).toString("base64url")}`;
  return server.key;
};

// The other key alone first: what its requests take on an idle server (after the default warm-up).
const idle: TimedAnswer[] = [];
for (let index = 0; index < 100; index += 1) idle.push(await send(server.otherKey));

let running = true;
const flood: TimedAnswer[] = [];
const floodClients = Array.from({ length: flooders }, async () => {
  while (running) {
    const answer = await send(keyOfFlooder());
    flood.push(answer);
    // A refused request is sent again at once, as an impatient client does, or after the server's retry-after.
    if (retry === "retry-after" && answer.status === "429")
      await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
});
// The other key's client runs in a thread of its own: in this one, its answers would wait behind the flooders'
// (at once, this thread handles over a thousand answers a second), and that wait is the bench's, not the server's.
const otherBodies = Array.from({ length: 2_000 }, () => bodies.next().toString());
// Once the flood has filled the queues.
const otherClient = startOneClient(url, headersOf(server.otherKey), otherBodies, 1_000);
await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
running = false;
const [other] = await Promise.all([otherClient.stop(), ...floodClients]);
await server.stop();

console.log(machineLine());
console.log(
  `${flooders} clients with ${flooderKey === "own" ? "one key" : `${flooderKey === "unknown" ? "a new unknown" : "a malformed"} key each request`} for ${seconds} s, a refused request sent again ${retry === "at-once" ? "at once" : "after retry-after (1 s)"}; one client with another key beside them`,
);
console.table({
  "other key, idle server": summary(idle),
  "flooding key": {
    ...summary(flood),
    "per second": Math.round(flood.filter((a) => a.status === "200").length / seconds),
  },
  "other key, during the flood": summary(other),
});
