import { isNil } from "./dash-cells.js";
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

const isPercentNumber = (number: SourceNumber): boolean =>
  number.number.kind === "percent" || number.number.kind === "percentage-points" || number.percentContext;

/**
 * The distinct places (row labels and lines of prose) of a list of source numbers, written one after the other
 * in one string, so that a claim's word is looked for in all of them by one `indexOf` scan instead of one
 * `includes` per place. A claim's words are letters only (`contentWords`), so none can hold the separator nor
 * run from one place into the next.
 */
interface PlaceIndex {
  readonly joined: string;
  /** Where each place starts in `joined`, and its end as one more entry. */
  readonly starts: Int32Array;
  /** Each number's place. */
  readonly placeOf: Int32Array;
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
  // Figures of one line follow each other: the last place is compared before the map is asked.
  let lastPlace: string | undefined;
  let last = -1;
  numbers.forEach((number, index) => {
    const where = number.table ? number.table.label : number.lineText;
    if (where !== lastPlace) {
      let place = placeNumber.get(where);
      if (place === undefined) {
        place = places.length;
        placeNumber.set(where, place);
        places.push(where);
      }
      lastPlace = where;
      last = place;
    }
    placeOf[index] = last;
  });
  const starts = new Int32Array(places.length + 1);
  let at = 0;
  places.forEach((place, index) => {
    starts[index] = at;
    at += place.length + placeSeparator.length;
  });
  starts[places.length] = at;
  const index = { joined: places.join(placeSeparator), starts, placeOf };
  placeIndexes.set(numbers, index);
  return index;
};

/** The place `at` falls in, at or after `from` (the scan goes forward, so the answer is usually near). */
const placeAt = (starts: Int32Array, at: number, from: number): number => {
  let place = from;
  while ((starts[place + 1] as number) <= at) place += 1;
  return place;
};

/** For each place, how many of `words` it holds (`proximity` for every number of that place). */
const placeScores = (index: PlaceIndex, words: readonly string[]): Int32Array => {
  const { joined, starts } = index;
  const places = starts.length - 1;
  const scores = new Int32Array(places);
  for (const word of words) {
    if (word.length === 0) {
      // "".includes finds the empty word in every place.
      for (let place = 0; place < places; place++) scores[place] = (scores[place] as number) + 1;
      continue;
    }
    let place = 0;
    for (let at = joined.indexOf(word); at >= 0; ) {
      place = placeAt(starts, at, place);
      scores[place] = (scores[place] as number) + 1;
      // A word counts once per place: go on from the next place.
      place += 1;
      if (place >= places) break;
      at = joined.indexOf(word, starts[place] as number);
    }
  }
  return scores;
};

/** Source numbers in proximity order (most shared words with the claim first, then document order). */
export const rankSources = (numbers: readonly SourceNumber[], words: readonly string[]): SourceNumber[] => {
  const index = placeIndexOf(numbers);
  const scores = placeScores(index, words);
  // Scores are small counts of words: bucket by score, highest first, document order within a bucket.
  const buckets: SourceNumber[][] = [];
  numbers.forEach((number, at) => {
    const score = scores[index.placeOf[at] as number] as number;
    const bucket = buckets[score];
    if (bucket) bucket.push(number);
    else buckets[score] = [number];
  });
  const ranked: SourceNumber[] = [];
  for (let score = buckets.length - 1; score >= 0; score--)
    for (const number of buckets[score] ?? []) ranked.push(number);
  return ranked;
};

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

/** Runs of adjacent figures: along a table row, down a table column, along a line of prose. */
const runGroups = (numbers: readonly SourceNumber[]): SourceNumber[][] => {
  const groups = new Map<string, SourceNumber[]>();
  // Prose lines are keyed by their text itself (one string per line, hashed once), never by a new key
  // string built around it: a 10 KB line would be copied and hashed again for every figure on it.
  const lineGroups = new Map<number, Map<string, SourceNumber[]>>();
  const inOrder: SourceNumber[][] = [];
  const add = (key: string, number: SourceNumber) => {
    const group = groups.get(key);
    if (group) group.push(number);
    else {
      const created = [number];
      groups.set(key, created);
      inOrder.push(created);
    }
  };
  for (const number of numbers) {
    if (number.inLabel || isNil(number)) continue;
    if (number.table) {
      // A row of totals is summed or averaged along its periods; down a column a total is not an item.
      add(`row:${number.source}:${number.table.block}:${number.table.row}`, number);
      if (!number.isTotal)
        add(`column:${number.source}:${number.table.block}:${number.table.column}`, number);
    } else if (!number.isTotal) {
      let lines = lineGroups.get(number.source);
      if (!lines) {
        lines = new Map();
        lineGroups.set(number.source, lines);
      }
      const group = lines.get(number.lineText);
      if (group) group.push(number);
      else {
        const created = [number];
        lines.set(number.lineText, created);
        inOrder.push(created);
      }
    }
  }
  return inOrder.map((group) => group.sort((a, b) => a.id - b.id));
};

/** The sum and the average of every figure of a table row or column, in each scale its first figure has. */
const wholeGroup = (ordered: readonly SourceNumber[], percent: readonly boolean[]): Operand[] => {
  const first = ordered[0] as SourceNumber;
  const sum = ordered.reduce((total, number) => total + number.number.value, 0);
  const isPercent = percent.every(Boolean);
  const scales = first.number.value === 0 ? [1] : first.values.map((value) => value / first.number.value);
  return scales.flatMap((scale) => [
    {
      value: sum * scale,
      raw: undefined,
      parts: ordered,
      combine: "sum" as const,
      scale,
      year: undefined,
      rank: first.id,
      isPercent,
    },
    {
      value: (sum * scale) / ordered.length,
      raw: undefined,
      parts: ordered,
      combine: "average" as const,
      scale,
      year: undefined,
      rank: first.id,
      isPercent,
    },
  ]);
};

/**
 * Sums and averages of runs of 3 to `maxRun` adjacent figures of one table row, one table column or one
 * line ("(3,696+3,861+3,272)/3"), in each scale the figures share. Totals are not items of a column or a
 * line, but a row of totals is summed or averaged along its periods. A table row or column longer than
 * `maxRun` is also summed and averaged whole ("the average age of the officers": every row of the Age
 * column), never in longer partial runs. Used as direct matches only, which keeps the search depth at one.
 */
export const rowRunOperands = (numbers: readonly SourceNumber[], maxRun: number): Operand[] => {
  const runs: Operand[] = [];
  for (const ordered of runGroups(numbers)) {
    const percent = ordered.map(isPercentNumber);
    if (ordered.length > maxRun && ordered[0]?.table) runs.push(...wholeGroup(ordered, percent));
    for (let start = 0; start < ordered.length; start++) {
      const first = ordered[start] as SourceNumber;
      const scales = first.number.value === 0 ? [1] : first.values.map((value) => value / first.number.value);
      let sum = 0;
      let allPercent = true;
      for (let length = 1; length <= maxRun && start + length <= ordered.length; length++) {
        sum += (ordered[start + length - 1] as SourceNumber).number.value;
        allPercent &&= percent[start + length - 1] ?? false;
        if (length < 3) continue;
        const parts = ordered.slice(start, start + length);
        for (const scale of scales) {
          runs.push({
            value: sum * scale,
            raw: undefined,
            parts,
            combine: "sum",
            scale,
            year: undefined,
            rank: first.id,
            isPercent: allPercent,
          });
          runs.push({
            value: (sum * scale) / length,
            raw: undefined,
            parts,
            combine: "average",
            scale,
            year: undefined,
            rank: first.id,
            isPercent: allPercent,
          });
        }
      }
    }
  }
  return runs;
};
