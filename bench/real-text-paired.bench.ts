/**
 * A change measured against its baseline on real text, side by side: this tree's build (`dist`) and another
 * build's `dist` folder (say, an earlier commit built into a scratch copy) verify the same distinct payloads of
 * `npm run bench:real`, each payload by one and then the other (the order alternating from payload to payload),
 * so both meet the same load from moment to moment. On a shared machine whose speed drifts by a third within
 * minutes, only such a ratio compares two versions.
 *
 *   npm run build
 *   git worktree add /tmp/base <commit> && (cd /tmp/base && npm ci && npm run build)
 *   VERACITY_DATASETS_DIR=../shared/benchmarks npm run bench:real:paired -- \
 *     --baseline /tmp/base/dist [--rounds 5] [--payloads 200] [--set tatqa]
 *
 * Each round gives every payload's sources a new closing word, so no verification meets sources a cache holds;
 * two rounds before the measured ones compile the code. Reported: each side's answers per second over the
 * measured rounds, the ratio of their total times, and the median of the per-payload ratios.
 */
import {
  pairedBenchArguments,
  pairedTimes,
  thisTreesDist,
  timedVerification,
  verifierOfBuild,
} from "./libraries/paired-builds.js";
import { payloadsOfSet } from "./libraries/real-payloads.js";
import { median } from "./libraries/statistics.js";

const { baseline: baselineDist, rounds, payloads: payloadCount, set } = pairedBenchArguments(200);

const current = await verifierOfBuild(thisTreesDist);
const baseline = await verifierOfBuild(baselineDist);
const payloads = await payloadsOfSet(set, payloadCount);

/** The request of one payload in one round, as a server would receive it: parsed from JSON. */
const requestOf = (index: number, round: string) => {
  const payload = payloads[index] as (typeof payloads)[number];
  return JSON.stringify({
    text: payload.text,
    sources: payload.sources.map((source) => `${source} ${round}`),
  });
};

for (const round of ["warm-a", "warm-b"])
  for (let index = 0; index < payloads.length; index++) {
    const json = requestOf(index, round);
    await timedVerification(current, json);
    await timedVerification(baseline, json);
  }

let currentTotal = 0;
let baselineTotal = 0;
const ratios: number[] = [];
for (let round = 0; round < rounds; round++)
  for (let index = 0; index < payloads.length; index++) {
    const json = requestOf(index, `round-${round}`);
    const { current: mine, baseline: theirs } = await pairedTimes(
      current,
      baseline,
      json,
      (index + round) % 2 === 0,
    );
    currentTotal += mine;
    baselineTotal += theirs;
    ratios.push(theirs / mine);
  }
await current.close();
await baseline.close();

const measured = rounds * payloads.length;
console.log(
  `${measured} verifications each, ${payloads.length} distinct payloads${set === undefined ? "" : ` of ${set}`} x ${rounds} rounds, paired per payload`,
);
console.log(`this tree: ${((measured / currentTotal) * 1000).toFixed(1)} answers/s`);
console.log(`baseline:  ${((measured / baselineTotal) * 1000).toFixed(1)} answers/s`);
console.log(
  `this tree is ${(baselineTotal / currentTotal).toFixed(3)}x as fast (total times); median per payload ${median(ratios).toFixed(3)}x`,
);
