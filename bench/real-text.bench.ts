/**
 * Verification speed on real text: answers of about 1 KB against about 10 KB of sources, both cut from the
 * labelled sets (SummEdits, BEGIN, FRANK, TAT-QA: each payload joins the responses and the contexts of
 * neighbouring records of one set), every payload distinct, the offline layers on one core (this thread).
 * Beside it, in the same run: `JSON.parse` of the same payloads (a baseline any machine has), and the same
 * payload repeated (labelled: the source indexes are then cached); then the distinct payloads again through a
 * worker pool of one worker per core (every core).
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks node --expose-gc --import tsx bench/real-text.bench.ts [payloads]
 */
import { availableParallelism } from "node:os";
import { buildSourceIndex } from "../src/checks/grounding/source-index.js";
import { prepareSources } from "../src/checks/numbers/derive/prepared-sources.js";
import { defaultSearchLimits } from "../src/checks/numbers/derive/search.js";
import { defaultMaxSourceNumbers } from "../src/checks/numbers/derive/source-numbers.js";
import { createVerifier } from "../src/facade/create-verifier.js";
import { createWorkerPoolVerifier } from "../src/facade/worker-pool/index.js";
import type { EvidenceSource } from "../src/model/layer.js";
import { machineLine, timeCalls, timingsHeader, timingsRow } from "./libraries/call-timings.js";
import { buildPayloads, type Payload } from "./libraries/real-payloads.js";

const payloadLimit = Number(process.argv[2] ?? 200);

const all = await buildPayloads();
// Each payload once: no verification meets sources the cache has seen.
const payloads = all.slice(0, payloadLimit);
const json = payloads.map((payload) => JSON.stringify(payload));
const meanAnswer = payloads.reduce((sum, p) => sum + p.text.length, 0) / payloads.length;
const meanSources = payloads.reduce((sum, p) => sum + p.sources.join("").length, 0) / payloads.length;

const verifier = createVerifier();
// Warm-up on payloads left out of the measured set.
for (const payload of all.slice(payloads.length, payloads.length + 20)) await verifier.verify(payload);
if (all.length <= payloads.length)
  for (let i = 0; i < 20; i += 1) await verifier.verify(payloads.at(-1) as Payload);

const timeEach = (run: (index: number) => Promise<unknown> | unknown) => timeCalls(payloads.length, run);

globalThis.gc?.();
const rssBefore = process.memoryUsage().rss;
const parsed = await timeEach((index) => JSON.parse(json[index] as string));
const fresh = await timeEach((index) => verifier.verify(JSON.parse(json[index] as string) as Payload));
const repeated = await timeEach(() => verifier.verify(JSON.parse(json[0] as string) as Payload));
// The process's peak resident set over the whole run (kilobytes on Linux).
const peakRss = process.resourceUsage().maxRSS * 1024;
await verifier.close();

/**
 * Indexing alone, in MB of source text per second on this core: the grounding layer's index (sentences, word
 * stems, postings) and the numbers layer's reading of the sources (every figure with its table position,
 * period and scale, as operands sorted by value), each over every distinct payload's sources, after a warm-up
 * on the sources left out. What each layer does to a new source before it looks at the answer.
 */
const evidenceOf = (payload: Payload): EvidenceSource[] =>
  payload.sources.map((text, index) => ({ index, origin: "source" as const, text }));
const measured = payloads.map(evidenceOf);
const warmEvidence = all.slice(payloads.length, payloads.length + 20).map(evidenceOf);
const sourceMegabytes =
  measured.reduce((sum, evidence) => sum + evidence.reduce((chars, e) => chars + e.text.length, 0), 0) / 1e6;
const prepareOptions = { maxNumbers: defaultMaxSourceNumbers, maxRun: defaultSearchLimits.maxRowRun };
const indexRate = (index: (evidence: EvidenceSource[]) => unknown): number => {
  for (const evidence of warmEvidence) index(evidence);
  const started = performance.now();
  for (const evidence of measured) index(evidence);
  return sourceMegabytes / ((performance.now() - started) / 1000);
};
const groundingIndexRate = indexRate(buildSourceIndex);
const numbersIndexRate = indexRate((evidence) => prepareSources(evidence, prepareOptions));

/**
 * Every core: the same distinct payloads through a worker pool of one worker per core, two calls in flight per
 * worker, after a warm-up of each worker on the payloads left out (so its code is compiled and its caches hold
 * none of the measured sources). The pool's latencies include waiting for a worker.
 */
const cores = availableParallelism();
const pool = createWorkerPoolVerifier({ workers: cores });
await Promise.all(
  all.slice(payloads.length, payloads.length + 20 * cores).map((payload) => pool.verify(payload)),
);
const everyCore = await timeCalls(
  payloads.length,
  (index) => pool.verify(JSON.parse(json[index] as string) as Payload),
  2 * cores,
);
await pool.close();

console.log(
  `${machineLine()}; ${payloads.length} distinct payloads, answer ${meanAnswer.toFixed(0)} chars, sources ${meanSources.toFixed(0)} chars on average`,
);
console.log(timingsHeader);
console.log(timingsRow("JSON.parse of the payload (baseline)", parsed));
console.log(timingsRow("verify, offline layers, distinct payloads", fresh));
console.log(timingsRow("verify, the same payload repeated (cached indexes)", repeated));
console.log(timingsRow(`verify, distinct payloads, worker pool of ${cores} (every core)`, everyCore));
console.log(
  `indexing new sources on this core: grounding index ${groundingIndexRate.toFixed(1)} MB/s, numbers layer's reading ${numbersIndexRate.toFixed(1)} MB/s, both ${(1 / (1 / groundingIndexRate + 1 / numbersIndexRate)).toFixed(1)} MB/s`,
);
console.log(
  `peak RSS ${(peakRss / 2 ** 20).toFixed(0)} MB over the whole run (${(rssBefore / 2 ** 20).toFixed(0)} MB once the payloads were read)`,
);
