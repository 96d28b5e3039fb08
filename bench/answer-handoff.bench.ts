/**
 * What handing a prepared answer from a worker thread to the server's thread costs that thread, per answer: the
 * answer's JSON sent as a string (copied by `postMessage`, then encoded again for the socket) against the same
 * JSON as UTF-8 bytes moved with a transfer list (what the worker pool does since 2026-11-27). Only the handoff
 * and the write are measured: a worker replies with prepared bodies of real verifications (the real-text
 * payloads, each made distinct by a few trailing spaces), a loopback HTTP server in this thread writes each one,
 * and a client in a child process asks for them over keep-alive, 8 at a time. The thread's CPU time comes from
 * `/proc` (Linux only), so it counts this thread alone, not the worker's nor the client's.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks node --import tsx bench/answer-handoff.bench.ts [answers, default 20000]
 *
 * The two ways alternate, four times each, after one warm-up run of each.
 */
import { fork } from "node:child_process";
import { Agent, createServer, request } from "node:http";
import { Worker } from "node:worker_threads";
import { createVerifier } from "../src/facade/create-verifier.js";
import { prepareAnswer } from "../src/facade/prepared-answer.js";
import { mainThreadCpuSeconds } from "../src/server/testing/main-thread-cpu.js";
import { machineLine } from "./libraries/call-timings.js";
import { buildPayloads } from "./libraries/real-payloads.js";

if (process.argv[2] === "client") {
  const port = Number(process.argv[3]);
  const count = Number(process.argv[4]);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let sent = 0;
  const one = () =>
    new Promise<void>((resolve) => {
      const call = request({ port, agent, method: "POST", path: "/" }, (answer) => {
        answer.resume();
        answer.on("end", resolve);
      });
      call.end("{}");
    });
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (sent++ < count) await one();
    }),
  );
  process.exit(0);
}

const count = Number(process.argv[2] ?? 20_000);
const verifier = createVerifier();
const bodies: string[] = [];
const utf8 = new TextDecoder();
for (const payload of await buildPayloads())
  bodies.push(utf8.decode(prepareAnswer(await verifier.verify(payload), { layerClaims: false }).body));
await verifier.close();

// The worker: each message asks for the next body, sent as a string or as bytes moved with a transfer list.
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const encoder = new TextEncoder();
let next = 0;
parentPort.on("message", (id) => {
  const body = workerData.bodies[next % workerData.bodies.length] + " ".repeat(next++ % 7);
  if (!workerData.bytes) return parentPort.postMessage({ id, body });
  const bytes = encoder.encode(body);
  parentPort.postMessage({ id, body: bytes }, [bytes.buffer]);
});`;

/** This thread's CPU time in milliseconds: the bench runs on the main thread. */
const mainThreadCpuMs = (): number => (mainThreadCpuSeconds() ?? Number.NaN) * 1000;

const run = async (bytes: boolean, answers: number) => {
  const worker = new Worker(workerSource, { eval: true, workerData: { bodies, bytes } });
  const waiting = new Map<number, (body: string | Uint8Array) => void>();
  let nextId = 0;
  worker.on("message", (reply: { id: number; body: string | Uint8Array }) => {
    waiting.get(reply.id)?.(reply.body);
    waiting.delete(reply.id);
  });
  const server = createServer((incoming, outgoing) => {
    incoming.resume();
    incoming.on("end", () => {
      const id = nextId++;
      waiting.set(id, (body) => {
        const length = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
        outgoing.writeHead(200, { "content-type": "application/json", "content-length": length });
        outgoing.end(body);
      });
      worker.postMessage(id);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const cpuBefore = mainThreadCpuMs();
  const started = performance.now();
  await new Promise((resolve) =>
    fork(new URL(import.meta.url).pathname, ["client", String(port), String(answers)], {
      execArgv: ["--import", "tsx"],
    }).on("exit", resolve),
  );
  const wallMs = performance.now() - started;
  const cpuMs = mainThreadCpuMs() - cpuBefore;
  server.close();
  await worker.terminate();
  return { cpuMicros: (cpuMs / answers) * 1000, wallMicros: (wallMs / answers) * 1000 };
};

console.log(
  `${machineLine()}; ${count} answers per run, ${bodies.length} distinct bodies, ${new Date().toISOString()}`,
);
await run(false, 2_000);
await run(true, 2_000);
console.log("| handoff | this thread's CPU, µs per answer | wall, µs per answer |\n|---|---|---|");
for (let round = 0; round < 4; round++)
  for (const bytes of [false, true]) {
    const { cpuMicros, wallMicros } = await run(bytes, count);
    console.log(
      `| ${bytes ? "UTF-8 bytes, moved" : "string, copied"} | ${cpuMicros.toFixed(0)} | ${wallMicros.toFixed(0)} |`,
    );
  }
