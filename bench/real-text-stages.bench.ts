/**
 * What reading the sources costs, stage by stage, against the one-core bar's budget: at 1,000 answers a second
 * a verification has 1 ms. Over `bench:real`'s payloads (about 1 KB of answer against about 11 KB of sources,
 * cut from the labelled sets), in one thread that has first verified every payload `rounds` times, this times:
 *
 * - two floors, what any reading of the sources costs in JavaScript on this machine: every character read once
 *   (`charCodeAt`, summed), and one regular expression over the words (`\p{L}+`);
 * - the parts the two offline layers build from the sources before they look at a claim: the sentences, the
 *   stems, the figures, the grounding layer's index (sentences, stems and postings), the numbers layer's reading
 *   (every figure with its context, indexed by value);
 * - the whole verification, through a new verifier each pass (its caches empty), and once more with each
 *   payload's sources already read (its third call to one verifier: what the claims, the answer and the service
 *   take).
 *
 * Each stage is a pure function called afresh on every payload: no cache answers it. The payloads repeat from
 * one pass to the next, so the code has seen them (as in `bench:real:warm`'s labelled row); the figure for
 * payloads never seen before is `bench:real:warm`'s. Each row is the median of `passes` passes, in milliseconds
 * per payload (the pass's mean), for all payloads and split into prose (every set but TAT-QA) and TAT-QA. The
 * passes interleave (every stage and group once per round). The last column divides each row by the regular
 * expression's floor, a ratio that holds across machines better than milliseconds do.
 *
 *   VERACITY_DATASETS_DIR=../shared/benchmarks node --import tsx bench/real-text-stages.bench.ts [rounds, default 10] [passes, default 15]
 */
import { buildSourceIndex } from "../src/checks/grounding/source-index.js";
import { prepareSources } from "../src/checks/numbers/derive/prepared-sources.js";
import { defaultSearchLimits } from "../src/checks/numbers/derive/search.js";
import { defaultMaxSourceNumbers } from "../src/checks/numbers/derive/source-numbers.js";
import { extractNumbers } from "../src/checks/numbers/extract/extract-numbers.js";
import { createVerifier } from "../src/facade/create-verifier.js";
import type { EvidenceSource } from "../src/model/layer.js";
import { splitSentences } from "../src/text/sentences.js";
import { stemsOf } from "../src/text/tokens.js";
import { machineLine } from "./libraries/call-timings.js";
import { buildLabelledPayloads } from "./libraries/real-payloads.js";
import { median } from "./libraries/statistics.js";

const numbers = process.argv.slice(2).filter((arg) => /^\d+$/.test(arg));
const rounds = Number(numbers[0] ?? 10);
const passes = Number(numbers[1] ?? 15);

const labelled = await buildLabelledPayloads();
const evidence: EvidenceSource[][] = labelled.map(({ payload }) =>
  payload.sources.map((text, index) => ({ index, origin: "source" as const, text })),
);
const groups: Record<string, number[]> = {
  all: labelled.map((_, index) => index),
  prose: labelled.flatMap(({ set }, index) => (set === "tatqa" ? [] : [index])),
  tatqa: labelled.flatMap(({ set }, index) => (set === "tatqa" ? [index] : [])),
};
const sourceChars = evidence.map((sources) => sources.reduce((sum, source) => sum + source.text.length, 0));

/** Keeps what a stage returns reachable, so no stage's work can be dropped as unused. */
let sink = 0;
const keep = (value: unknown): void => {
  sink += Array.isArray(value) ? value.length : value === undefined ? 0 : 1;
};

// The rows the summary lines read.
const regexFloorName = "floor: one regular expression over the sources' words (`\\p{L}+`, matches counted)";
const groundingIndexName = "grounding: the source index (`buildSourceIndex`: sentences, stems, postings)";
const numbersReadingName =
  "numbers: the sources read (`prepareSources`: figures with their context, indexed by value)";

const stages: { readonly name: string; readonly run: (index: number) => unknown }[] = [
  {
    name: "floor: every character of the sources read once (`charCodeAt`, summed)",
    run: (index) => {
      let sum = 0;
      for (const source of evidence[index] as EvidenceSource[])
        for (let at = 0; at < source.text.length; at++) sum += source.text.charCodeAt(at);
      return sum;
    },
  },
  {
    name: regexFloorName,
    run: (index) => {
      let count = 0;
      for (const source of evidence[index] as EvidenceSource[])
        for (const _ of source.text.matchAll(/\p{L}+/gu)) count++;
      return count;
    },
  },
  {
    name: "the sources' sentences (`splitSentences`)",
    run: (index) => (evidence[index] as EvidenceSource[]).map((source) => splitSentences(source.text)),
  },
  {
    name: "the sources' stems (`stemsOf`, whole sources)",
    run: (index) => (evidence[index] as EvidenceSource[]).map((source) => stemsOf(source.text)),
  },
  {
    name: "the sources' figures (`extractNumbers`)",
    run: (index) => (evidence[index] as EvidenceSource[]).map((source) => extractNumbers(source.text, {})),
  },
  {
    name: groundingIndexName,
    run: (index) => buildSourceIndex(evidence[index] as EvidenceSource[]),
  },
  {
    name: numbersReadingName,
    run: (index) =>
      prepareSources(evidence[index] as EvidenceSource[], {
        maxNumbers: defaultMaxSourceNumbers,
        maxRun: defaultSearchLimits.maxRowRun,
      }),
  },
];

const verifyPass = async (indexes: readonly number[]): Promise<void> => {
  const verifier = createVerifier();
  for (const index of indexes)
    keep(await verifier.verify((labelled[index] as (typeof labelled)[number]).payload));
  await verifier.close();
};

/**
 * Each payload verified three times in a row by one verifier, the third call timed: a verifier keeps the
 * sources it has read twice (their index and their figures), so the third call reads none of them again. What it
 * takes is the claims', the answer's and the service's share. Milliseconds per payload.
 */
const sourcesReadPass = async (indexes: readonly number[]): Promise<number> => {
  const verifier = createVerifier();
  let timed = 0;
  for (const index of indexes) {
    const { payload } = labelled[index] as (typeof labelled)[number];
    keep(await verifier.verify(payload));
    keep(await verifier.verify(payload));
    const started = performance.now();
    keep(await verifier.verify(payload));
    timed += performance.now() - started;
  }
  await verifier.close();
  return timed / indexes.length;
};

// Warm-up: every stage over every payload, and `rounds` verifications of each.
for (let round = 0; round < 5; round++)
  for (const stage of stages) for (let index = 0; index < labelled.length; index++) keep(stage.run(index));
for (let round = 0; round < rounds; round++) await verifyPass(groups.all as number[]);
await sourcesReadPass(groups.all as number[]);

/** One pass of a stage over a group's payloads: milliseconds per payload. */
const timePass = async (indexes: readonly number[], pass: () => Promise<void> | void): Promise<number> => {
  const started = performance.now();
  await pass();
  return (performance.now() - started) / indexes.length;
};

// The passes interleave: each round times every stage on every group once, so a slow stretch of the machine
// falls on all rows alike instead of on whichever stage it happened to meet.
const verifyName = "the whole verification (default offline layers, a new verifier each pass)";
const cachedName =
  "the whole verification, the sources already read (each payload's third call to one verifier, which keeps sources it has read twice)";
const names = [...stages.map((stage) => stage.name), verifyName, cachedName];
const times = new Map<string, number[]>();
const timesOf = (name: string, group: string): number[] => {
  const key = `${name}\u0000${group}`;
  let list = times.get(key);
  if (list === undefined) {
    list = [];
    times.set(key, list);
  }
  return list;
};
for (let pass = 0; pass < passes; pass++) {
  for (const [group, indexes] of Object.entries(groups)) {
    for (const stage of stages)
      timesOf(stage.name, group).push(
        await timePass(indexes, () => {
          for (const index of indexes) keep(stage.run(index));
        }),
      );
    timesOf(verifyName, group).push(await timePass(indexes, () => verifyPass(indexes)));
    timesOf(cachedName, group).push(await sourcesReadPass(indexes));
  }
}
const rows = names.map((name) => ({
  name,
  ms: Object.fromEntries(Object.keys(groups).map((group) => [group, median(timesOf(name, group))])),
}));

const meanChars = sourceChars.reduce((sum, chars) => sum + chars, 0) / sourceChars.length;
console.log(
  `${machineLine()}; ${labelled.length} payloads (${(groups.prose as number[]).length} prose, ${(groups.tatqa as number[]).length} TAT-QA), sources ${Math.round(meanChars)} characters on average; warm-up ${rounds} rounds; median of ${passes} passes; ${new Date().toISOString()}`,
);
// The regular expression's floor is the unit a machine's speed cancels out of.
const allOf = (name: string): number => rows.find((row) => row.name === name)?.ms.all ?? Number.NaN;
const floor = allOf(regexFloorName);
console.log(
  "| stage | ms per payload, all | prose | TAT-QA | share of the 1 ms budget (all) | x the regular expression's floor (all) |",
);
console.log("|---|---|---|---|---|---|");
for (const { name, ms } of rows)
  console.log(
    `| ${name} | ${(ms.all as number).toFixed(3)} | ${(ms.prose as number).toFixed(3)} | ${(ms.tatqa as number).toFixed(3)} | ${Math.round((ms.all as number) * 100)}% | ${((ms.all as number) / floor).toFixed(1)} |`,
  );
const reading = allOf(groundingIndexName) + allOf(numbersReadingName);
console.log(
  `the two layers' source readings together: ${reading.toFixed(3)} ms per payload, ${Math.round(reading * 100)}% of the 1 ms a verification has at 1,000 answers/s, before any claim is checked (kept: ${sink > 0})`,
);
// Everything but the readings: what the claims, the answer and the service cost. Reading the sources at no cost
// at all would leave this, so it bounds what any faster reading of them alone can give.
const rest = allOf(verifyName) - reading;
const measuredRest = allOf(cachedName);
console.log(
  `the rest of a verification (the claims, the answer, the service): ${rest.toFixed(3)} ms per payload by difference, ${measuredRest.toFixed(3)} ms measured with the sources already read; with the sources read at no cost, at most ${Math.round(1000 / Math.min(rest, measuredRest))} answers/s`,
);
