/**
 * What one client address holding connections leaves for everyone else. A `veracity serve` in its own process
 * (bench-server.ts: a PGlite data directory, the default pool and limits) gets `hogs` connections from 127.0.0.1,
 * each sending the start of a request head and then nothing, so that it holds its connection until the headers
 * deadline (10 s) closes it; each closed one is opened again at once (one closed on arrival after a second), from
 * a thread of its own. Meanwhile another client, from 127.0.0.2,
 * opens a new connection every 100 ms and asks `GET /healthz` on it (given 2 s). Two servers, one after the
 * other: the cap per address set out of reach (1,000,000: every connection the total allows, as before the cap
 * existed) and the default.
 *
 * Reported for each: the other client's answered requests, failures and latency; how many connections the hog
 * held open at the end, and how many of its connections the server closed on arrival; the server's CPU over the
 * probing phase, as a share of one core (all threads, and its main thread's), and its peak resident memory then.
 *
 *   node --import tsx bench/connection-hog.bench.ts [hogs, default 10000] [seconds, default 15]
 */
import { connect } from "node:net";
import { Worker } from "node:worker_threads";
import { machineLine } from "./libraries/call-timings.js";
import { startServerProcess } from "./libraries/server-process.js";
import { percentileOfSorted } from "./libraries/statistics.js";

const args = process.argv.slice(2);
const hogs = Number(args[0] ?? 10_000);
const seconds = Number(args[1] ?? 15);

interface Hog {
  /** Stops the hog and resolves with its connections open at that moment and those closed on arrival. */
  readonly stop: () => Promise<{ readonly held: number; readonly refused: number }>;
}

/**
 * Keeps `hogs` connections from 127.0.0.1 open, each with half a request head, in a thread of its own (so its
 * sockets do not delay the measured client's): one closed at the headers deadline is opened again at once, one
 * closed on arrival after a second.
 */
const hogJob = `
const { connect } = require("node:net");
const { parentPort, workerData } = require("node:worker_threads");
const { hostname, port, host } = new URL(workerData.url);
let held = 0, refused = 0, stopped = false;
const open = () => {
  if (stopped) return;
  const socket = connect({ port: Number(port), host: hostname, localAddress: "127.0.0.1" });
  let established = false, answered = false, openedAt = 0;
  socket.on("connect", () => {
    established = true;
    openedAt = Date.now();
    held += 1;
    socket.write("GET /healthz HTTP/1.1\\r\\nhost: " + host + "\\r\\n");
  });
  socket.on("data", () => { answered = true; });
  socket.on("error", () => undefined);
  socket.on("close", () => {
    if (established) held -= 1;
    // Closed unanswered within a second of opening: closed on arrival, not at the headers deadline.
    const onArrival = !established || (!answered && Date.now() - openedAt < 1000);
    if (onArrival) refused += 1;
    setTimeout(open, onArrival ? 1000 : 0);
  });
};
for (let index = 0; index < workerData.hogs; index += 1) open();
parentPort.once("message", () => {
  stopped = true;
  parentPort.postMessage({ held, refused });
});`;

const startHog = (url: string): Hog => {
  const worker = new Worker(hogJob, { eval: true, workerData: { url, hogs } });
  return {
    stop: async () => {
      const figures = new Promise<{ held: number; refused: number }>((resolve) =>
        worker.once("message", resolve),
      );
      worker.postMessage("stop");
      const result = await figures;
      await worker.terminate();
      return result;
    },
  };
};

interface Probe {
  readonly answeredMs: number[];
  failures: number;
}

/** One `GET /healthz` on a new connection from 127.0.0.2: its time, or undefined when it failed or took 2 s. */
const probeOnce = (url: string): Promise<number | undefined> =>
  new Promise((resolve) => {
    const { hostname, port, host } = new URL(url);
    const started = performance.now();
    const socket = connect({ port: Number(port), host: hostname, localAddress: "127.0.0.2" });
    let received = "";
    const done = (value: number | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done(undefined), 2_000);
    socket.on("connect", () =>
      socket.write(`GET /healthz HTTP/1.1\r\nhost: ${host}\r\nconnection: close\r\n\r\n`),
    );
    socket.on("data", (chunk) => {
      received += String(chunk);
      if (/^HTTP\/1\.1 200/.test(received)) done(performance.now() - started);
    });
    socket.on("error", () => done(undefined));
    socket.on("close", () => done(undefined));
  });

const measure = async (label: string, env: Record<string, string>) => {
  const server = await startServerProcess(env);
  try {
    const hog = startHog(server.url);
    // The hog's connections are opened first: the probe starts once they had a second to arrive.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The server's CPU over the probing phase: what the hog's connections (held and refused) cost it.
    await server.mark();
    const probe: Probe = { answeredMs: [], failures: 0 };
    const started = Date.now();
    const end = started + seconds * 1_000;
    const probes: Promise<void>[] = [];
    while (Date.now() < end) {
      probes.push(
        probeOnce(server.url).then((ms) => {
          if (ms === undefined) probe.failures += 1;
          else probe.answeredMs.push(ms);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await Promise.all(probes);
    const stats = await server.mark();
    const cpu = (seconds: number | undefined) =>
      seconds === undefined ? "?" : `${Math.round((seconds / ((Date.now() - started) / 1000)) * 100)}%`;
    const { held, refused } = await hog.stop();
    const sorted = probe.answeredMs.sort((x, y) => x - y);
    const ms = (p: number) => (sorted.length === 0 ? "-" : percentileOfSorted(sorted, p).toFixed(1));
    console.log(
      `| ${label} | ${held} | ${refused} | ${sorted.length} of ${sorted.length + probe.failures} | ${ms(50)} | ${ms(99)} | ${cpu(stats.cpuSeconds)} (${cpu(stats.mainThreadCpuSeconds)}) | ${stats.memory === undefined ? "?" : `${stats.memory.peakResidentMb} MB`} |`,
    );
  } finally {
    await server.stop();
  }
};

console.log(
  `${machineLine()}; ${hogs} connections from one address, ${seconds} s, ${new Date().toISOString()}`,
);
console.log(
  "| server | hog's connections open at the end | hog's connections closed on arrival | other address: /healthz answered | p50 ms | p99 ms | server CPU, of a core (main thread) | server's peak resident memory |",
);
console.log("|---|---|---|---|---|---|---|---|");
await measure("cap per address out of reach (1,000,000)", { BENCH_MAX_CONNECTIONS_PER_ADDRESS: "1000000" });
await measure("default cap per address", {});
process.exit(0);
