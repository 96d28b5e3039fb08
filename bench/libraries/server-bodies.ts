import type { Payload } from "./real-payloads.js";
import { lcg } from "./seeded.js";
import { threeWords } from "./word-digits.js";

/**
 * The request bodies of the server bench. Distinct bodies: every real payload in turn, each time with a filing
 * note appended to each of its sources ("Filed under amber, cedar and maple."), three plain words that name the
 * round. So body n and body n + k differ in every source for every k below `distinct`, and no cache of the
 * server can hit: the source indexes and the numbers layer's prepared sources are kept by evidence set (every
 * source's text, in order) and each source's reading by its text, and the payloads are first reduced to distinct
 * evidence sets (whose sources no other payload shares: see `buildPayloads`). Until 2026-12-07 the note went to
 * the last source only, which kept every set new while the other sources came back each round. The note has no
 * figure and shares almost no word with the answers, so what is checked is what the labelled data holds.
 */
const noteWords = (
  "amber birch cedar alder ember fjord grove heron iris juniper kestrel larch maple nectar oak pine " +
  "quartz rowan sage thyme umber violet willow yarrow zinnia basil clover dune elm fern gorse hazel"
).split(" ");

/** How many distinct notes there are: three words of 32. */
export const noteVariants = noteWords.length ** 3;

/** The `variant`th note, as text. */
const noteText = (variant: number) => {
  const [first, second, third] = threeWords(variant, noteWords);
  return `\n\nFiled under ${first}, ${second} and ${third}.`;
};

/** Where a note goes in a payload's sources, and the same as JSON writes it (no text holds it). */
const notePlace = "\u0001note\u0001";
const notePlaceInJson = JSON.stringify(notePlace).slice(1, -1);

/** The `variant`th note, JSON-escaped, to be written inside a source's JSON string. */
const note = (variant: number) => JSON.stringify(noteText(variant)).slice(1, -1);

/** The payload's JSON cut before the `"]}` that closes its last source, so a note can be written there. */
const opened = (payload: Payload) => {
  const json = JSON.stringify({ text: payload.text, sources: payload.sources });
  if (payload.sources.length === 0 || !json.endsWith('"]}')) throw new Error("a payload needs a source");
  return json.slice(0, -3);
};

/** The order payloads are sent in: their sets interleaved (a seeded shuffle), or set after set as cut. */
export type BodyOrder = "mixed" | "sets";

/** The payloads in a shuffled order, the same on every run (Fisher-Yates over `lcg`). */
const shuffled = <T>(values: readonly T[], seed = 21): T[] => {
  const random = lcg(seed);
  const order = [...values];
  for (let last = order.length - 1; last > 0; last--) {
    const pick = Math.floor(random() * (last + 1));
    [order[last], order[pick]] = [order[pick] as T, order[last] as T];
  }
  return order;
};

/**
 * Bodies for `POST /v1/check`, a new one on every call of `next`, shared by every autocannon client. `mixed`
 * (the default) sends the payloads shuffled once, so the labelled sets interleave as independent users' requests
 * would; `sets` sends them as they were cut, set after set, so the 45 table-heavy TAT-QA payloads (three times
 * a prose payload's work) arrive together every cycle, a burst that set the p99 of an offered load
 * (docs/BENCHMARKS.md, stop 38).
 */
export const distinctBodies = (payloads: readonly Payload[], order: BodyOrder = "mixed") => {
  const distinctSets = [
    ...new Map(payloads.map((payload) => [payload.sources.join("\u0000"), payload])).values(),
  ];
  // Each payload's JSON cut where a note goes (at the end of every source), so a body is its pieces joined by the
  // round's note: writing each body out with `JSON.stringify` took this process (the clients') about 50 µs a body,
  // and halved the rate of the baseline server, which answers a body in less.
  const unique = (order === "mixed" ? shuffled(distinctSets) : distinctSets).map((payload) =>
    JSON.stringify({
      text: payload.text,
      sources: payload.sources.map((source) => source + notePlace),
    }).split(notePlaceInJson),
  );
  let built = 0;
  return {
    payloads: unique.length,
    distinct: unique.length * noteVariants,
    /** Bodies made so far (each autocannon client also makes one it may never send when the run stops). */
    built: () => built,
    next: (): string => {
      const n = built++;
      return (unique[n % unique.length] as string[]).join(note(Math.floor(n / unique.length) % noteVariants));
    },
  };
};

/** The large bodies: one answer against `sources`, a distinct note on each (built once, copied per request). */
export const largeBodies = (answer: string, sources: string[]) => {
  const head = Buffer.from(opened({ text: answer, sources }));
  let built = 0;
  return { bytes: head.length, next: () => Buffer.concat([head, Buffer.from(`${note(built++)}"]}`)]) };
};

/**
 * The earlier synthetic payload, sent repeated (`BENCH_PAYLOAD=synthetic-repeated`): 10 KB of report-like
 * sources and a 1 KB answer drawn from them, some numbers edited (seeded, deterministic). The same body every
 * time, so the server answers partly from its caches.
 */
export const syntheticPayload = (seed = 42): Payload => {
  const random = lcg(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const subjects = [
    "Revenue",
    "Operating income",
    "Net sales",
    "Gross margin",
    "Headcount",
    "Capital spending",
  ];
  const units = ["North", "South", "Retail", "Wholesale", "Cloud", "Devices", "Services", "Logistics"];
  const verbs = ["rose", "fell", "grew", "declined", "increased", "decreased"];
  const sentence = () =>
    `${pick(subjects)} of the ${pick(units)} division ${pick(verbs)} to $${(random() * 900 + 10).toFixed(1)} million in the ${pick(["first", "second", "third", "fourth"])} quarter of ${2019 + Math.floor(random() * 6)}, according to chief financial officer ${pick(["Dana Okafor", "Lee Park", "Ana Silva"])}.`;
  const sourceSentences: string[] = [];
  while (sourceSentences.join(" ").length < 10_240) sourceSentences.push(sentence());
  const parts: string[] = [];
  while (parts.join(" ").length < 1_024) {
    const picked = pick(sourceSentences);
    parts.push(random() < 0.3 ? picked.replace(/\d/, String(Math.floor(random() * 10))) : picked);
  }
  return { text: parts.join(" ").slice(0, 1_024), sources: [sourceSentences.join(" ").slice(0, 10_240)] };
};
