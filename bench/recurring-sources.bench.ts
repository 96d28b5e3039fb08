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
 *   npm run build
 *   VERACITY_DATASETS_DIR=../shared/benchmarks npm run bench:recurring-sources -- \
 *     --baseline <another build's dist> [--rounds 5] [--payloads 100]
 */
import {
  pairedBenchArguments,
  pairedTimes,
  thisTreesDist,
  timedVerification,
  verifierOfBuild,
} from "./libraries/paired-builds.js";
import { buildPayloads } from "./libraries/real-payloads.js";
import { recurringDocuments } from "./libraries/recurring-documents.js";
import { median } from "./libraries/statistics.js";

const { baseline: baselineDist, rounds, payloads: payloadCount } = pairedBenchArguments(100);

const current = await verifierOfBuild(thisTreesDist);
const baseline = await verifierOfBuild(baselineDist);
const requests = recurringDocuments(await buildPayloads(), payloadCount);
const { payloads, documents, documentChars } = requests;
const requestOf = (index: number): string => requests.next(index);

const seenSets = new Set<string>();
for (let warm = 0; warm < 2; warm++)
  for (let index = 0; index < payloads.length; index++) {
    const json = requestOf(index);
    seenSets.add(json);
    await timedVerification(current, json);
    await timedVerification(baseline, json);
  }

let currentTotal = 0;
let baselineTotal = 0;
let repeatedSets = 0;
const ratios: number[] = [];
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
await current.close();
await baseline.close();

const measured = rounds * payloads.length;
console.log(
  `${measured} verifications each: ${payloads.length} payloads x ${rounds} rounds, their sources drawn again each round from ${documents.length} documents of ${documentChars.toLocaleString("en-US")} characters in all (${repeatedSets} requests repeated an earlier one whole)`,
);
console.log(`this tree: ${((measured / currentTotal) * 1000).toFixed(1)} answers/s`);
console.log(`baseline:  ${((measured / baselineTotal) * 1000).toFixed(1)} answers/s`);
console.log(
  `this tree is ${(baselineTotal / currentTotal).toFixed(3)}x as fast (total times); median per request ${median(ratios).toFixed(3)}x`,
);
