import { makeScratchArray } from "../../../model/scratch-array.js";
import { lastTextMemo } from "../../../text/last-text-memo.js";
import { mayHold, pairMasksOf, wordPairBits } from "./character-pairs.js";
import type { SourceNumber } from "./source-numbers.js";

/**
 * One value a derivation may use: a source number in one of its scales, or a sum or average of a table row run.
 * Every field is always present (undefined when it does not apply) and every place that makes one writes them
 * in this order, so all operands share one hidden class (see `SourceNumber`).
 */
export interface Operand {
  readonly value: number;
  /** A bare figure read as written although its document declares a scale ("44.1" rather than 44.1 million). */
  readonly raw: boolean | undefined;
  /** How it is written in a formula, in the claim's scale (set when the formula is printed). */
  readonly parts: readonly SourceNumber[];
  readonly combine: "value" | "sum" | "average" | "difference";
  /** Multiplier of `value` relative to the written literals of `parts`. */
  readonly scale: number;
  readonly year: number | undefined;
  /** Position in proximity order: 0 is the operand closest to the claim. */
  readonly rank: number;
  readonly isPercent: boolean;
}

const stopwords = new Set(
  "the and for was were what with from that this than are is its has have had their which total change average percentage percent value amount year years between how much many did does company group million thousand billion fiscal ratio proportion increase decrease difference sum rate growth answer respectively end period over during last".split(
    " ",
  ),
);

/** Content words of a claim (and question), used to rank source lines by proximity. */
export const contentWords = (text: string): string[] =>
  [...new Set(text.toLowerCase().match(/\p{L}{3,}/gu) ?? [])].filter((word) => !stopwords.has(word));

/** Shared words between the claim and where the figure sits: its table row label, or its line of prose. */
export const proximity = (number: SourceNumber, words: readonly string[]): number => {
  const where = number.table ? number.table.label : number.lineText;
  return words.reduce((score, word) => (where.includes(word) ? score + 1 : score), 0);
};

/** A figure read as a percent: written as one, or in a percent table or sentence. */
export const isPercentNumber = (number: SourceNumber): boolean =>
  number.number.kind === "percent" || number.number.kind === "percentage-points" || number.percentContext;

/**
 * The distinct places (row labels and lines of prose) of a list of source numbers, written one after the other
 * in one string, so that a claim's word is looked for by `indexOf` from a place on instead of one `includes` per
 * place. A claim's words are letters only (`contentWords`), so none can hold the separator nor run from one place
 * into the next.
 */
interface PlaceIndex {
  readonly joined: string;
  /** Where each place starts in `joined`, and its end as one more entry. */
  readonly starts: Int32Array;
  /** Each number's place. */
  readonly placeOf: Int32Array;
  /** Each place's pairs of neighbouring characters, as `pairMasksOf` keeps them. */
  readonly pairMasks: Int32Array;
}

const placeSeparator = "\u0000";
/** Kept per list of numbers: every claim of an answer ranks the same list. */
const placeIndexes = new WeakMap<readonly SourceNumber[], PlaceIndex>();

const placeIndexOf = (numbers: readonly SourceNumber[]): PlaceIndex => {
  const cached = placeIndexes.get(numbers);
  if (cached) return cached;
  const placeNumber = new Map<string, number>();
  const places: string[] = [];
  const placeOf = new Int32Array(numbers.length);
  // Figures of one line follow each other: the map is asked once per line.
  const placeFor = lastTextMemo((where) => {
    let place = placeNumber.get(where);
    if (place === undefined) {
      place = places.length;
      placeNumber.set(where, place);
      places.push(where);
    }
    return place;
  });
  numbers.forEach((number, index) => {
    placeOf[index] = placeFor(number.table ? number.table.label : number.lineText);
  });
  const starts = new Int32Array(places.length + 1);
  let at = 0;
  places.forEach((place, index) => {
    starts[index] = at;
    at += place.length + placeSeparator.length;
  });
  starts[places.length] = at;
  const joined = places.join(placeSeparator);
  const index = { joined, starts, placeOf, pairMasks: pairMasksOf(joined, starts, placeSeparator.length) };
  placeIndexes.set(numbers, index);
  return index;
};

/** The place `at` falls in, at or after `from` (the scan goes forward, so the answer is usually near). */
const placeAt = (starts: Int32Array, at: number, from: number): number => {
  let place = from;
  while ((starts[place + 1] as number) <= at) place += 1;
  return place;
};

/**
 * For each place, how many of `words` it holds (`proximity` for every number of that place), in `scores` (its
 * first entries, one per place). A word is looked for only in the places whose pair bits allow it, each read
 * from its start in `joined`; a find past the place's end is the word's next place, so the places before that
 * are passed over.
 */
const placeScores = (index: PlaceIndex, words: readonly string[], scores: Int32Array): void => {
  const { joined, starts, pairMasks } = index;
  const places = starts.length - 1;
  scores.fill(0, 0, places);
  for (const word of words) {
    if (word.length === 0) {
      // "".includes finds the empty word in every place.
      for (let place = 0; place < places; place++) scores[place] = (scores[place] as number) + 1;
      continue;
    }
    const wordBits = wordPairBits(word);
    for (let place = 0; place < places; place++) {
      if (!mayHold(pairMasks, place, wordBits)) continue;
      const at = joined.indexOf(word, starts[place] as number);
      if (at < 0) break;
      if (at < (starts[place + 1] as number)) {
        // A word counts once per place: go on from the next place.
        scores[place] = (scores[place] as number) + 1;
        continue;
      }
      // The word stands next in a later place: go on from there (the loop's step lands on it).
      place = placeAt(starts, at, place) - 1;
    }
  }
};

/** Source numbers in proximity order (most shared words with the claim first, then document order). */
export const rankSources = (numbers: readonly SourceNumber[], words: readonly string[]): SourceNumber[] => {
  const index = placeIndexOf(numbers);
  const scores = placeScoreArrays.take(index.starts.length - 1);
  placeScores(index, words, scores);
  // Scores are small counts of words: bucket by score, highest first, document order within a bucket.
  const buckets: SourceNumber[][] = [];
  numbers.forEach((number, at) => {
    const score = scores[index.placeOf[at] as number] as number;
    const bucket = buckets[score];
    if (bucket) bucket.push(number);
    else buckets[score] = [number];
  });
  placeScoreArrays.give(scores);
  const ranked: SourceNumber[] = [];
  for (let score = buckets.length - 1; score >= 0; score--)
    for (const number of buckets[score] ?? []) ranked.push(number);
  return ranked;
};

/** The places' scores, in a work array kept between rankings (see `makeScratchArray`). */
const placeScoreArrays = makeScratchArray((length) => new Int32Array(length));

/** Every value of every ranked source number as an operand. */
export const plainOperands = (ranked: readonly SourceNumber[]): Operand[] => {
  const operands: Operand[] = [];
  ranked.forEach((number, rank) => {
    const isPercent = isPercentNumber(number);
    number.values.forEach((value, index) => {
      const scale = number.number.value === 0 ? 1 : value / number.number.value;
      const raw = index === 0 && number.values.length > 1;
      operands.push({
        value,
        raw,
        parts: [number],
        combine: "value",
        scale,
        year: number.year,
        rank,
        isPercent,
      });
    });
  });
  return operands;
};
