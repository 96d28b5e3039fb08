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
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { freePort } from "../src/testing/free-port.js";
import { machineLine } from "./libraries/call-timings.js";
import { type TimedAnswer, timedPost } from "./libraries/one-client.js";
import { buildPayloads, type Payload } from "./libraries/real-payloads.js";
import { percentileOfSorted } from "./libraries/statistics.js";

const args = process.argv.slice(2);
const cliAt = args.indexOf("--cli");
const cli = cliAt >= 0 ? String(args[cliAt + 1]) : join(import.meta.dirname, "../dist/cli/main.js");
const numbers = args.filter((arg, index) => /^\d+$/.test(arg) && index !== cliAt + 1).map(Number);
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

const port = await freePort();
const server: ChildProcess = spawn(
  process.execPath,
  [cli, "mcp", "--http", "--db", database, "--port", String(port)],
  { stdio: ["ignore", "ignore", "pipe"] },
);
process.once("exit", () => server.kill("SIGKILL"));
let stderr = "";
const url = await new Promise<string>((resolve, reject) => {
  server.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    const listening = /listening on (http:\/\/\S+)/.exec(stderr);
    if (listening?.[1]) resolve(listening[1]);
  });
  server.once("exit", (code) => reject(new Error(`veracity mcp exited (${code}): ${stderr}`)));
});

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
const realClient = new Worker(new URL("../src/facade/worker-pool/run-from-sources.mjs", import.meta.url), {
  workerData: {
    sourceEntry: new URL("./libraries/one-client-worker.ts", import.meta.url).href,
    url,
    headers: headersOf(key),
    bodies: realCalls,
    startAfterMs: 1_000,
  },
});
const realAnswers = new Promise<TimedAnswer[]>((resolve) => realClient.once("message", resolve));
await new Promise((resolve) => setTimeout(resolve, seconds * 1_000));
running = false;
realClient.postMessage("stop");
const [real] = await Promise.all([realAnswers, ...flood]);
await realClient.terminate();
server.kill();
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
