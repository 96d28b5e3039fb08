/**
 * A 10 MB source: the distinct contexts of the labelled sets (FRANK, SummEdits, BEGIN, TAT-QA, XSum) joined
 * by blank lines to 10,000,000 characters, checked against answers of about 1 KB made of the responses of
 * consecutive records (each answer distinct, and the source changed by one closing sentence per run so no
 * cache holds it). Default settings: the source is over `evidenceFocus.above`, so the layers read the passages
 * that concern each answer. Reported: time per verification (median, max) one request after another, the
 * process's peak resident set and its resident set before the first verification (taken over runs that each
 * start after a forced full collection, whose times are reported apart), beside the time of `JSON.parse` of
 * the same request.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks npm run bench:large [-- runs]
 *   (node --expose-gc --import tsx bench/large-source.bench.ts [runs])
 *
 * With `--baseline <another build's dist folder>` it compares two builds side by side instead: this tree's
 * `dist` and the baseline verify each request one after the other, the order alternating from run to run, so
 * both meet the same load (this machine's speed drifts by a third within minutes, more than most changes).
 * Reported: each side's median, and the median of the per-request ratios. No memory figures in this mode.
 */
import { parseArgs } from "node:util";
import { createVerifier } from "../src/facade/create-verifier.js";
import { machineLine } from "./libraries/call-timings.js";
import { pairedTimes, thisTreesDist, verifierOfBuild } from "./libraries/paired-builds.js";
import { median } from "./libraries/statistics.js";
import { readBenchmarkRecords } from "./libraries/texts.js";

// Without a collection between runs, the garbage of earlier runs counts as this run's peak memory.
if (globalThis.gc === undefined) {
  process.stderr.write(
    "run with node --expose-gc (npm run bench:large): the peak memory needs a collection between runs\n",
  );
  process.exit(2);
}

const { values, positionals } = parseArgs({
  options: { baseline: { type: "string" } },
  allowPositionals: true,
});
const runs = Number(positionals[0] ?? 9);
const sourceChars = 10_000_000;

const contexts: string[] = [];
const responses: string[] = [];
const seen = new Set<string>();
let size = 0;
for (const name of ["frank_cnndm", "summedits", "begin", "tatqa", "frank_xsum"]) {
  for (const record of await readBenchmarkRecords(`${name}.jsonl`)) {
    if (record.context && !seen.has(record.context) && size < sourceChars) {
      seen.add(record.context);
      contexts.push(record.context);
      size += record.context.length + 2;
    }
    if (record.response) responses.push(record.response);
  }
}
let source = contexts.join("\n\n");
// The sets hold about 2.5 MB of distinct text: the rest repeats it, as a long filing repeats its boilerplate.
while (source.length < sourceChars) source += `\n\n${source.slice(0, sourceChars - source.length)}`;
source = source.slice(0, sourceChars);

const answers: string[] = [];
// Distinct answers for each verifier's runs: the first `runs + 1` for the runs that take the peak, the next `runs`
// for the runs timed one after another. The same answer again would be focused on the same passages, whose
// indexes the verifier keeps (evidence that large is kept at first sight). The every-passage runs below reuse
// the first answers through a verifier of their own.
for (let at = 0, answer = ""; at < responses.length && answers.length < 2 * runs + 1; at += 1) {
  answer += `${responses[(at * 7_919) % responses.length]} `;
  if (answer.length >= 1_000) {
    answers.push(answer.trim());
    answer = "";
  }
}

const machine = () =>
  `${machineLine()}, ${new Date().toISOString()}; source ${source.length} chars, answers ~1 KB, ${runs} runs`;

if (values.baseline !== undefined) {
  const current = await verifierOfBuild(thisTreesDist);
  const baseline = await verifierOfBuild(values.baseline);
  const currentTimes: number[] = [];
  const baselineTimes: number[] = [];
  const ratios: number[] = [];
  for (let run = 0; run < runs + 1; run++) {
    const json = JSON.stringify({ text: answers[run], sources: [`${source}\n\nRun ${run} closes here.`] });
    const { current: currentMs, baseline: baselineMs } = await pairedTimes(
      current,
      baseline,
      json,
      run % 2 === 0,
    );
    // The first run compiles the code: left out.
    if (run === 0) continue;
    currentTimes.push(currentMs);
    baselineTimes.push(baselineMs);
    ratios.push(baselineMs / currentMs);
  }
  await current.close();
  await baseline.close();
  console.log(machine());
  console.log(
    `this tree: median ${median(currentTimes).toFixed(0)} ms; baseline ${values.baseline}: median ${median(baselineTimes).toFixed(0)} ms; baseline / this tree, median per request: ${median(ratios).toFixed(2)}x`,
  );
  process.exit(0);
}

const verifier = createVerifier();
/** Each verification's time after a forced full collection: the runs that measure peak memory. */
const collectedTimes: number[] = [];
const parses: number[] = [];
let kept = 0;
let rssBefore = 0;
for (let run = 0; run < runs + 1; run++) {
  let request: string | undefined = JSON.stringify({
    text: answers[run],
    sources: [`${source}\n\nRun ${run} closes here.`],
  });
  let started = performance.now();
  const parsed = JSON.parse(request) as { text: string; sources: string[] };
  const parseMs = performance.now() - started;
  request = undefined;
  // What the earlier runs left is collected first, so the peak is one verification's own.
  globalThis.gc?.();
  if (run === 0) rssBefore = process.memoryUsage().rss;
  started = performance.now();
  const result = await verifier.verify(parsed);
  const ms = performance.now() - started;
  // The first run compiles the code: left out of the times.
  if (run === 0) continue;
  collectedTimes.push(ms);
  parses.push(parseMs);
  kept = result.evidenceFocus?.keptCharacters ?? source.length;
}
const peak = process.resourceUsage().maxRSS * 1024;

// The times reported: verifications one after another, as a server runs them, with no forced collection before
// each. A verification right after a forced full collection ran 1.2-1.6x slower than one after another, with
// the same collections during it (two scavenges either way, by --trace-gc), a cost no server pays.
const times: number[] = [];
for (let run = 0; run < runs; run++) {
  const parsed = JSON.parse(
    JSON.stringify({
      text: answers[runs + 1 + run],
      sources: [`${source}\n\nRun ${run} closes here again.`],
    }),
  ) as { text: string; sources: string[] };
  const started = performance.now();
  await verifier.verify(parsed);
  times.push(performance.now() - started);
}
await verifier.close();

// Side by side: the same requests with focusing off (every passage read), three runs after one to compile.
const everyPassage = createVerifier({
  settings: { evidenceFocus: { above: 1_000_000_000, keep: 100_000, perAnswerCharacter: 20 } },
});
const unfocused: number[] = [];
for (let run = 0; run < 4; run++) {
  const started = performance.now();
  await everyPassage.verify({
    text: answers[run + 1] as string,
    sources: [`${source}\n\nRun ${run} reads all.`],
  });
  if (run > 0) unfocused.push(performance.now() - started);
}
await everyPassage.close();

console.log(machine());
console.log(
  `verify, one request after another: median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
);
console.log(
  `verify right after a forced full collection (the runs that take the peak): median ${median(collectedTimes).toFixed(0)} ms, max ${Math.max(...collectedTimes).toFixed(0)} ms`,
);
console.log(
  `focusing off, every passage read (3 runs after the peak was taken): median ${median(unfocused).toFixed(0)} ms`,
);
console.log(`JSON.parse of the same request (baseline): median ${median(parses).toFixed(1)} ms`);
console.log(`the layers read ${kept} characters of the source (last run)`);
console.log(
  `resident set: ${(rssBefore / 2 ** 20).toFixed(0)} MB before the first verification (data, source and one request in memory), peak ${(peak / 2 ** 20).toFixed(0)} MB, so ${((peak - rssBefore) / 2 ** 20).toFixed(0)} MB for verifying`,
);
const bars = [
  ["verified in under 0.3 s (median)", median(times) < 300],
  ["peak memory of verifying under 200 MB", peak - rssBefore < 200 * 2 ** 20],
] as const;
for (const [bar, met] of bars) console.log(`${met ? "PASS" : "FAIL"} ${bar}`);
