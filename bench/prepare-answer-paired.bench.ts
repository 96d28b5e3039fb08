/**
 * What preparing an answer costs a worker, per answer, this tree's build against another's, side by side: the
 * answer's JSON encoded as UTF-8 and the audit trail's output hash (canonical JSON of the verdict, then
 * SHA-256), which a worker thread does for every answer it hands to the server. The answers are real: this
 * tree's verifier's results on the real-text payloads of `npm run bench:real` (about 1 KB of answer against
 * about 10 KB of sources; the results average about 13 KB of JSON). Beside them, in the same run, the baseline
 * any machine has: `JSON.stringify` of the same results.
 *
 *   npm run build
 *   VERACITY_DATASETS_DIR=../shared/benchmarks npm run bench:prepare-answer -- --baseline /tmp/base/dist \
 *     [--rounds 25] [--payloads 226] [--set tatqa]
 *
 * Each round prepares every answer with one build and then with the other (which goes first alternates by
 * round), after two rounds of each to compile the code; reported are the medians of the rounds, in µs per
 * answer, and the ratio of the medians. Both builds must give the same output hashes: the bench stops if not.
 */
import type { VerificationResult } from "../src/model/result.js";
import { machineLine } from "./libraries/call-timings.js";
import {
  importFromBuild,
  pairedBenchArguments,
  thisTreesDist,
  verifierOfBuild,
} from "./libraries/paired-builds.js";
import { payloadsOfSet } from "./libraries/real-payloads.js";
import { median } from "./libraries/statistics.js";

const { baseline: baselineDist, rounds, payloads: payloadCount, set } = pairedBenchArguments(226, false, 25);

type Prepare = (
  result: VerificationResult,
  options: { readonly layerClaims: boolean },
) => { readonly outputHash: string };
const prepareOf = async (dist: string): Promise<Prepare> =>
  (await importFromBuild<{ prepareAnswer: Prepare }>(dist, "facade/prepared-answer.js")).prepareAnswer;

const payloads = await payloadsOfSet(set, payloadCount);
const verifier = await verifierOfBuild(thisTreesDist);
const results: VerificationResult[] = [];
for (const payload of payloads) results.push(await verifier.verify(payload));
await verifier.close();

const current = await prepareOf(thisTreesDist);
const baseline = await prepareOf(baselineDist);
for (const result of results)
  if (
    current(result, { layerClaims: false }).outputHash !== baseline(result, { layerClaims: false }).outputHash
  ) {
    process.stderr.write(
      "the two builds hash an answer differently: not the same output, nothing to compare\n",
    );
    process.exit(1);
  }

/** Microseconds per answer of one pass over every result. */
const pass = (prepare: (result: VerificationResult) => unknown): number => {
  const started = performance.now();
  for (const result of results) prepare(result);
  return ((performance.now() - started) * 1000) / results.length;
};
const times = { current: [] as number[], baseline: [] as number[], stringify: [] as number[] };
for (let round = -2; round < rounds; round++) {
  const order = round % 2 === 0 ? (["current", "baseline"] as const) : (["baseline", "current"] as const);
  const measured = {
    current: () => pass((result) => current(result, { layerClaims: false })),
    baseline: () => pass((result) => baseline(result, { layerClaims: false })),
  };
  const first = measured[order[0]]();
  const second = measured[order[1]]();
  const stringify = pass((result) => JSON.stringify(result));
  if (round < 0) continue;
  times[order[0]].push(first);
  times[order[1]].push(second);
  times.stringify.push(stringify);
}
const mean = results.reduce((sum, result) => sum + JSON.stringify(result).length, 0) / results.length;
process.stdout.write(
  `${machineLine()}; ${results.length} answers (${Math.round(mean)} characters of JSON on average), ${rounds} rounds\n`,
);
process.stdout.write(
  `JSON.stringify of the result (baseline): ${median(times.stringify).toFixed(1)} µs per answer\n`,
);
process.stdout.write(`prepareAnswer, this tree: ${median(times.current).toFixed(1)} µs per answer\n`);
process.stdout.write(`prepareAnswer, baseline:  ${median(times.baseline).toFixed(1)} µs per answer\n`);
process.stdout.write(
  `this tree takes ${(median(times.current) / median(times.baseline)).toFixed(3)}x the baseline's time\n`,
);
