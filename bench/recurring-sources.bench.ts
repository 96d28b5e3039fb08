/**
 * Documents that come back in new company, as a retrieval system hands them out: the same sources reach many
 * answers, each time with other sources beside them, so no evidence set repeats but its documents do. Over
 * `bench:real`'s payloads (about 1 KB of answer against about 11 KB of sources cut from the labelled sets), each
 * round gives every payload its own answer and sources with one source swapped for a document drawn from all the
 * payloads' sources, in a new order (a seeded shuffle): every round's sets are new, their documents are not.
 *
 * This tree's build (`dist`) and a baseline build verify each request one after the other (the order alternating),
 * as in `bench:real:paired`: the ratio says what keeping each source's reading (not only each set's) gains when
 * documents recur. The sources repeat here on purpose: this is a cache's scenario, not the one-core bar's
 * (`bench:real:warm`, whose payloads no cache answers). By default 100 of the payloads, evenly spread over the
 * four sets, whose documents (about 1.2 million characters) fit in what each layer keeps of single sources
 * (2,000,000 characters); with `--payloads 226` they do not, and a least-recently-used cache read in turn by
 * more than it holds keeps little.
 *
 * With `--workers N`, each build verifies in a worker pool of N threads instead, two calls in flight per worker,
 * a round through one pool and then the same round's requests through the other (the order alternating by round):
 * the ratio then includes where the pool sends each call, which decides which worker's caches meet its
 * documents.
 *
 *   npm run build
 *   VERACITY_DATASETS_DIR=../shared/benchmarks npm run bench:recurring-sources -- \
 *     --baseline <another build's dist> [--rounds 5] [--payloads 100] [--workers 0]
 */
import { timeCalls } from "./libraries/call-timings.js";
import {
  pairedBenchArguments,
  pairedTimes,
  poolOfBuild,
  thisTreesDist,
  timedVerification,
  verifierOfBuild,
} from "./libraries/paired-builds.js";
import { buildPayloads } from "./libraries/real-payloads.js";
import { recurringDocuments } from "./libraries/recurring-documents.js";
import { median } from "./libraries/statistics.js";

const { baseline: baselineDist, rounds, payloads: payloadCount, workers } = pairedBenchArguments(100, true);

const verifierOf = (dist: string) => (workers > 0 ? poolOfBuild(dist, workers) : verifierOfBuild(dist));
const current = await verifierOf(thisTreesDist);
const baseline = await verifierOf(baselineDist);
const requests = recurringDocuments(await buildPayloads(), payloadCount);
const { payloads, documents, documentChars } = requests;
const requestOf = (index: number): string => requests.next(index);

const seenSets = new Set<string>();
let currentTotal = 0;
let baselineTotal = 0;
let repeatedSets = 0;
const ratios: number[] = [];
// The pools' CPU time over the measured passes, in milliseconds (pool runs only).
let currentCpu = 0;
let baselineCpu = 0;
if (workers === 0) {
  for (let warm = 0; warm < 2; warm++)
    for (let index = 0; index < payloads.length; index++) {
      const json = requestOf(index);
      seenSets.add(json);
      await timedVerification(current, json);
      await timedVerification(baseline, json);
    }

  for (let round = 0; round < rounds; round++)
    for (let index = 0; index < payloads.length; index++) {
      const json = requestOf(index);
      if (seenSets.has(json)) repeatedSets += 1;
      seenSets.add(json);
      const timed = await pairedTimes(current, baseline, json, (index + round) % 2 === 0);
      currentTotal += timed.current;
      baselineTotal += timed.baseline;
      ratios.push(timed.baseline / timed.current);
    }
} else {
  // Each round's requests through one pool, then through the other, `2 * workers` calls in flight: the wall
  // time of each pass. Eight rounds of warm-up first: each worker compiles its code on its own, and a pool's
  // workers see half the calls each.
  const warmRounds = 8;
  // The wall time of a pass and the CPU time of the process meanwhile (every thread: the workers'
  // verifications, this thread's messages), which tells the work the pools' caches saved apart from the
  // machine's speed at that moment; both in milliseconds.
  const pass = async (verifier: typeof current, jsons: readonly string[]) => {
    const before = process.cpuUsage();
    const started = performance.now();
    await timeCalls(
      jsons.length,
      (index) => verifier.verify(JSON.parse(jsons[index] as string)),
      2 * workers,
    );
    const ms = performance.now() - started;
    const { user, system } = process.cpuUsage(before);
    return { ms, cpuMs: (user + system) / 1000 };
  };
  for (let round = 0; round < rounds + warmRounds; round++) {
    const jsons = payloads.map((_, index) => requestOf(index));
    for (const json of jsons) {
      if (round >= warmRounds && seenSets.has(json)) repeatedSets += 1;
      seenSets.add(json);
    }
    const currentFirst = round % 2 === 0;
    const first = await pass(currentFirst ? current : baseline, jsons);
    const second = await pass(currentFirst ? baseline : current, jsons);
    if (round < warmRounds) continue;
    const [currentPass, baselinePass] = currentFirst ? [first, second] : [second, first];
    currentTotal += currentPass.ms;
    baselineTotal += baselinePass.ms;
    currentCpu += currentPass.cpuMs;
    baselineCpu += baselinePass.cpuMs;
    ratios.push(baselinePass.ms / currentPass.ms);
  }
}
// What each build's caches did over the whole run, warm-up included (a build from before `cacheStats` has none).
const cachesOf = async (verifier: typeof current) => (await verifier.cacheStats?.()) ?? [];
const [currentCaches, baselineCaches] = [await cachesOf(current), await cachesOf(baseline)];
await current.close();
await baseline.close();

const measured = rounds * payloads.length;
console.log(
  `${measured} verifications each${workers > 0 ? ` in pools of ${workers} workers` : ""}: ${payloads.length} payloads x ${rounds} rounds, their sources drawn again each round from ${documents.length} documents of ${documentChars.toLocaleString("en-US")} characters in all (${repeatedSets} requests repeated an earlier one whole)`,
);
console.log(`this tree: ${((measured / currentTotal) * 1000).toFixed(1)} answers/s`);
console.log(`baseline:  ${((measured / baselineTotal) * 1000).toFixed(1)} answers/s`);
if (workers > 0)
  console.log(
    `CPU per answer (the process, every thread): this tree ${(currentCpu / measured).toFixed(3)} ms, baseline ${(baselineCpu / measured).toFixed(3)} ms (${(baselineCpu / currentCpu).toFixed(3)}x)`,
  );
console.log(
  `this tree is ${(baselineTotal / currentTotal).toFixed(3)}x as fast (total times); median per ${workers > 0 ? "round" : "request"} ${median(ratios).toFixed(3)}x`,
);
for (const [build, caches] of [
  ["this tree", currentCaches],
  ["baseline", baselineCaches],
] as const)
  if (caches.length > 0)
    console.log(
      `${build}'s caches, the whole run: ${caches
        .filter((cache) => cache.lookups > 0)
        .map(
          (cache) =>
            `${cache.cache} ${cache.hits}/${cache.lookups} answered (${((100 * cache.hits) / cache.lookups).toFixed(1)}%), ${cache.evictions} evicted, ${cache.entries} held`,
        )
        .join("; ")}`,
    );
