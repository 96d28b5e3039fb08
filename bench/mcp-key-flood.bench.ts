/**
 * What a flood of made-up keys leaves for a real key on `veracity mcp --http`: the built CLI (`npm run build`
 * first, or `--cli <another build's dist/cli/main.js>`) serves MCP over HTTP on a new PGlite directory holding one
 * key; `flooders` clients each send `verify` tool calls back to back, every one with a new random key of the right
 * form (`vk_` and 43 characters), so every call is a lookup and a 401; beside them, one client with the real key,
 * in a thread of its own, sends distinct real `verify` calls (about 1 KB of answer against 11 KB of sources from
 * the dev sets) one at a time, from 1 s into the flood.
 *
 * Reported: the flood's 401s, and the real key's calls answered, their p50, p99 and slowest.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks npm run bench:mcp-key-flood -- [flooders, default 600] [seconds, default 15] [--cli <path>]
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { machineLine } from "./libraries/call-timings.js";
import { startMcpHttp } from "./libraries/mcp-process.js";
import { startOneClient, timedPost } from "./libraries/one-client.js";
import { buildPayloads, type Payload } from "./libraries/real-payloads.js";
import { percentileOfSorted } from "./libraries/statistics.js";

const args = process.argv.slice(2);
const cliAt = args.indexOf("--cli");
const cli = cliAt >= 0 ? String(args[cliAt + 1]) : join(import.meta.dirname, "../dist/cli/main.js");
// The numbers given, but for the path after --cli.
const numbers = args
  .filter((arg, index) => /^\d+$/.test(arg) && (cliAt < 0 || index !== cliAt + 1))
  .map(Number);
const flooders = numbers[0] ?? 600;
const seconds = numbers[1] ?? 15;

const database = mkdtempSync(join(tmpdir(), "veracity-mcp-key-flood-"));
const minted = execFileSync(process.execPath, [
  cli,
  "serve",
  "keys",
  "create",
  "--user",
  "bench",
  "--db",
  database,
]);
const key = /vk_\S+/.exec(minted.toString())?.[0];
if (key === undefined) throw new Error(`no key minted: ${minted}`);

const server = await startMcpHttp(cli, ["--db", database]);
const url = server.url;

const headersOf = (presented: string) => ({
  authorization: `Bearer ${presented}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
});
/** A `verify` tool call; `note` makes its last source, and so the call, one no earlier call sent. */
const verifyCall = (payload: Payload, note: number) =>
  JSON.stringify({
    jsonrpc: "2.0",
    id: note,
    method: "tools/call",
    params: {
      name: "verify",
      arguments: {
        text: payload.text,
        sources: [...payload.sources.slice(0, -1), `${payload.sources.at(-1) ?? ""} (call ${note})`],
      },
    },
  });

const payloads = await buildPayloads();
let running = true;
let refused = 0;
const flood = Array.from({ length: flooders }, async (_, client) => {
  let sent = 0;
  while (running) {
    const made = `vk_${randomBytes(32).toString("base64url")}`;
    const payload = payloads[(client + sent) % payloads.length] as Payload;
    const answer = await timedPost(url, headersOf(made), verifyCall(payload, sent));
    sent += 1;
    if (answer.status === "401") refused += 1;
  }
});
// The real key's client in a thread of its own, so that its answers do not wait for this thread's flood.
const realCalls = Array.from({ length: 2_000 }, (_, note) =>
  verifyCall(payloads[note % payloads.length] as Payload, note),
);
const realClient = startOneClient(url, headersOf(key), realCalls, 1_000);
await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
running = false;
const [real] = await Promise.all([realClient.stop(), ...flood]);
await server.stop();
rmSync(database, { recursive: true, force: true });

const answered = real.filter((answer) => answer.status === "200").map((answer) => answer.ms);
answered.sort((a, b) => a - b);
const at = (p: number) => (answered.length === 0 ? "-" : percentileOfSorted(answered, p).toFixed(0));
console.log(machineLine());
console.log(
  `veracity mcp --http (${cli}), ${flooders} clients with a new made-up key each call for ${seconds} s`,
);
console.table({
  "made-up keys": { answered: `${refused} x 401` },
  "the real key": {
    answered: `${answered.length} x 200 of ${real.length}`,
    "p50 ms": at(50),
    "p99 ms": at(99),
    "max ms": at(100),
  },
});
process.exit(0);
