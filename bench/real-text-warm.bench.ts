/**
 * Verification speed on real text in a process that has been running a while: V8 optimises a function only
 * after it has run often, and re-optimises it each time new input shapes undo that work, so on text as varied
 * as the labelled sets a process keeps compiling for its first few thousand verifications (in `veracity eval`
 * over 9,184 records the optimising compiler was still busy after 5,000). `bench:real` warms up on 20
 * payloads; this measures the other end, the speed a long-running server settles at.
 *
 * The real payloads (`bench:real`'s: about 1 KB of answer against about 10 KB of sources) are split in two
 * halves, alternate payloads each. The process verifies the warm-up half `rounds` times, each round through a
 * new verifier so that no round meets indexes a cache kept; then a new verifier, whose caches are empty,
 * verifies the measured half once. No measured payload has been verified before in this process. Beside it in
 * the same run: `JSON.parse` of the measured payloads (the baseline any machine has; the median of 21 passes),
 * and the measured half once more through another new verifier (labelled: the code has then seen these very
 * payloads).
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks node --import tsx bench/real-text-warm.bench.ts [rounds, default 30] [--swap]
 *
 * `--swap` measures the other half after warming up on the first. Then the same on every core: a pool of one
 * worker per core, warmed up and measured the same way; and beside it what verification gets from every core with
 * no pool at all: one thread per core, each with a verifier of its own warmed up the same way, all verifying the
 * measured half at once (every thread the whole half, one call after the other). The pool's rate against that
 * one says what handing calls to workers and answers back costs on this machine; that one against one thread's,
 * what the cores give verification at most.
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { createVerifier } from "../src/facade/create-verifier.js";
import { createWorkerPoolVerifier } from "../src/facade/worker-pool/index.js";
import {
  type CallTimings,
  groupTimings,
  machineLine,
  timeCalls,
  timingsHeader,
  timingsRow,
} from "./libraries/call-timings.js";
import { buildLabelledPayloads, inRound, type Payload } from "./libraries/real-payloads.js";

const args = process.argv.slice(2);
const rounds = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 30);
const swap = args.includes("--swap");

const labelled = await buildLabelledPayloads();
const half = (parity: number) => labelled.filter((_, index) => index % 2 === parity);
const warmUp = half(swap ? 1 : 0).map(({ payload }) => payload);
const measuredLabelled = half(swap ? 0 : 1);
const measured = measuredLabelled.map(({ payload }) => payload);
const json = measured.map((payload) => JSON.stringify(payload));

const timeEach = (run: (index: number) => Promise<unknown> | unknown) => timeCalls(measured.length, run);

const warmStarted = performance.now();
for (let round = 0; round < rounds; round += 1) {
  const verifier = createVerifier();
  for (const payload of warmUp) await verifier.verify(payload);
  await verifier.close();
}
const warmSeconds = (performance.now() - warmStarted) / 1000;

// The baseline: 21 passes of JSON.parse over the measured payloads, the median pass reported (one pass takes a
// few milliseconds, too short for one timing to hold still).
const passes: CallTimings[] = [];
for (let pass = 0; pass < 21; pass += 1)
  passes.push(await timeEach((index) => JSON.parse(json[index] as string)));
const parsed = passes.sort((x, y) => x.perSecond - y.perSecond)[10] as CallTimings;
const first = createVerifier();
// Each call's latency, for the rows of each labelled set the payloads were cut from.
const unseenLatencies: number[] = [];
const unseen = await timeCalls(
  measured.length,
  (index) => first.verify(JSON.parse(json[index] as string) as Payload),
  1,
  (index, latency) => {
    unseenLatencies[index] = latency;
  },
);
await first.close();
const second = createVerifier();
const seen = await timeEach((index) => second.verify(JSON.parse(json[index] as string) as Payload));
await second.close();
/** The process's peak resident set so far, in MB (`maxRSS` is in kilobytes). */
const peakRssMb = () => process.resourceUsage().maxRSS / 1024;
// The payloads, the warm-up and the measured runs, before the pool's workers add theirs.
const oneThreadPeakMb = peakRssMb();

/**
 * Every core, warm: a pool of one worker per core warms up on the warm-up half for as many rounds, each round's
 * sources given a closing line of their own (the workers' caches outlive a round, so only new text makes each
 * round index its sources again), then verifies the measured half, which no worker has seen, two calls in flight
 * per worker. Its latencies include waiting for a worker.
 */
const cores = availableParallelism();
const pool = createWorkerPoolVerifier({ workers: cores });
for (let round = 0; round < rounds; round += 1)
  await timeCalls(
    warmUp.length,
    (index) => {
      return pool.verify(inRound(warmUp[index] as Payload, round));
    },
    2 * cores,
  );
const everyCore = await timeCalls(
  measured.length,
  (index) => pool.verify(JSON.parse(json[index] as string) as Payload),
  2 * cores,
);
await pool.close();

/** The measured half verified at once in `threads` threads, each with its own verifier: answers per second. */
const ownVerifierThreads = async (threads: number): Promise<number> => {
  const workers = Array.from(
    { length: threads },
    () =>
      // A TypeScript worker, loaded through tsx by the pool's own loader for workers run from sources.
      new Worker(new URL("../src/facade/worker-pool/run-from-sources.mjs", import.meta.url), {
        workerData: {
          sourceEntry: new URL("./libraries/own-verifier-worker.ts", import.meta.url).href,
          warmUp,
          measured: json,
          rounds,
        },
      }),
  );
  const next = (worker: Worker) =>
    new Promise<unknown>((resolve, reject) => {
      worker.once("message", resolve);
      worker.once("error", reject);
    });
  try {
    await Promise.all(workers.map(next));
    const started = performance.now();
    const done = workers.map(next);
    for (const worker of workers) worker.postMessage("go");
    await Promise.all(done);
    return ((threads * json.length) / (performance.now() - started)) * 1000;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
};
const ownThreads = await ownVerifierThreads(cores);

console.log(
  `${machineLine()}; warm-up: ${rounds} rounds over ${warmUp.length} payloads (${(
    rounds * warmUp.length
  ).toLocaleString(
    "en",
  )} verifications, ${warmSeconds.toFixed(1)} s); measured: ${measured.length} other payloads${swap ? " (halves swapped)" : ""}`,
);
console.log(timingsHeader);
console.log(timingsRow("JSON.parse of the payload (baseline)", parsed));
console.log(timingsRow("verify, offline layers, payloads this process never verified, empty caches", unseen));
for (const [set, timings] of groupTimings(unseenLatencies, (index) => measuredLabelled[index]?.set ?? "?"))
  console.log(timingsRow(`- of which ${set} (${timings.calls} payloads; rate = 1 / mean latency)`, timings));
console.log(timingsRow("verify, the same payloads again, empty caches (the code has seen them)", seen));
console.log(
  timingsRow(
    `verify, payloads never verified, worker pool of ${cores} warmed the same way (every core)`,
    everyCore,
  ),
);
console.log(
  `| verify, the same payloads in ${cores} threads at once, each its own verifier, no pool (every core, nothing handed over; rate only) | ${ownThreads.toFixed(0)} | - | - |`,
);
console.log(
  `every core: the pool ${(everyCore.perSecond / unseen.perSecond).toFixed(2)}x one thread, ${cores} threads of their own ${(ownThreads / unseen.perSecond).toFixed(2)}x; the pool ${(everyCore.perSecond / ownThreads).toFixed(2)}x of them`,
);
console.log(`ratio warm / baseline: ${(unseen.perSecond / parsed.perSecond).toExponential(2)}`);
console.log(
  `peak RSS: ${oneThreadPeakMb.toFixed(0)} MB in one thread (payloads read, warm-up and measured runs), ${peakRssMb().toFixed(0)} MB with the pool of ${cores}`,
);
