import { lastTextMemo } from "../../../text/last-text-memo.js";
import { isNil } from "../derive/dash-cells.js";
import { contentWords } from "../derive/operands.js";
import type { SourceNumber, SourcePool } from "../derive/source-numbers.js";
import type { ExtractedNumber } from "../extract/types.js";
import type { PartialAggregation } from "./validation-result.js";
import { exhausted, type WorkMeter } from "./work-meter.js";

/** Words that present a figure as a total. */
export const totalCue = /\b(?:total|totals|totalled|totaled|overall|combined|altogether|aggregate|in all)\b/i;

const maxItems = 24;

export interface AggregationTarget {
  readonly value: number;
  readonly tolerance: number;
  /** Compare against the items' values as written (bare), rather than scaled. */
  readonly written: boolean;
}

/**
 * The items each stated total of a pool sums: the cells above it in its table column, after the column's last
 * total above it (the last `maxItems` of them), or for a total of prose the first `maxItems` other figures of
 * its kind in its text. Worked out for every total of the pool in one pass and kept per pool: looked for per
 * total, each search read the whole pool, and every figure of a claim that names a total asks for every total.
 */
const itemsByTotal = new WeakMap<SourcePool, Map<SourceNumber, readonly SourceNumber[]>>();

const qualifies = (n: SourceNumber) => !n.isTotal && !n.inLabel && !isNil(n);

const totalItems = (pool: SourcePool): Map<SourceNumber, readonly SourceNumber[]> => {
  const kept = itemsByTotal.get(pool);
  if (kept) return kept;
  const items = new Map<SourceNumber, readonly SourceNumber[]>();
  // Table columns, each in pool order: a source's figures are read line by line, so its rows ascend.
  const columns = new Map<string, SourceNumber[]>();
  // Figures of prose that are not totals, by source and kind, the first `maxItems` of each.
  const prose = new Map<string, SourceNumber[]>();
  for (const n of pool.numbers) {
    if (n.table) {
      const key = `${n.source}:${n.table.block}:${n.table.column}`;
      const column = columns.get(key);
      if (column) column.push(n);
      else columns.set(key, [n]);
    } else if (!n.isTotal) {
      const key = `${n.source}:${n.number.kind}`;
      const list = prose.get(key);
      if (!list) prose.set(key, [n]);
      else if (list.length < maxItems) list.push(n);
    }
  }
  for (const column of columns.values()) {
    // The items of the rows above the current one and below the column's last total, the last `maxItems`.
    let open: SourceNumber[] = [];
    for (let at = 0; at < column.length; ) {
      const row = (column[at] as SourceNumber).table?.row ?? 0;
      let end = at;
      while (end < column.length && ((column[end] as SourceNumber).table?.row ?? 0) === row) end += 1;
      const cells = column.slice(at, end);
      const above = open.slice(-maxItems);
      for (const cell of cells) if (cell.isTotal) items.set(cell, above);
      // A row holding a total closes the column's items: the rows below it start a new run.
      if (cells.some((cell) => cell.isTotal)) open = [];
      else {
        for (const cell of cells) if (qualifies(cell)) open.push(cell);
        if (open.length > 2 * maxItems) open = open.slice(-maxItems);
      }
      at = end;
    }
  }
  for (const n of pool.numbers)
    if (n.isTotal && !n.table) items.set(n, prose.get(`${n.source}:${n.number.kind}`) ?? []);
  itemsByTotal.set(pool, items);
  return items;
};

const itemValue = (item: SourceNumber, written: boolean, scaleIndex: number): number =>
  written ? item.number.value : (item.values[scaleIndex] ?? item.number.scaled);

/**
 * The first subset of 2 to 4 items whose sum hits the target (4 only for short lists), or undefined. Each sum
 * tried counts one unit of `work`.
 */
const subsetSum = (
  items: readonly SourceNumber[],
  target: AggregationTarget,
  scaleIndex: number,
  work: WorkMeter,
): SourceNumber[] | undefined => {
  const values = items.map((item) => itemValue(item, target.written, scaleIndex));
  const hits = (sum: number) => Math.abs(sum - target.value) <= target.tolerance;
  const n = values.length;
  let tried = 0;
  try {
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        const two = (values[i] ?? 0) + (values[j] ?? 0);
        tried += 1;
        if (hits(two)) return [items[i], items[j]] as SourceNumber[];
        for (let k = j + 1; k < n; k++) {
          const three = two + (values[k] ?? 0);
          tried += 1;
          if (hits(three)) return [items[i], items[j], items[k]] as SourceNumber[];
          if (n > 16) continue;
          for (let l = k + 1; l < n; l++) {
            tried += 1;
            if (hits(three + (values[l] ?? 0)))
              return [items[i], items[j], items[k], items[l]] as SourceNumber[];
          }
        }
      }
    }
    return undefined;
  } finally {
    work.spent += tried;
  }
};

/** `totalCue` at every place it is written, made once. */
const everyTotalCue = new RegExp(totalCue.source, "gi");

/** The claim's words that say what is totalled ("options volume"), without the words that say it is a total. */
const topicWords = (claimText: string): string[] => contentWords(claimText.replace(everyTotalCue, " "));

/**
 * Whether a stated total is of what the claim totals: its row label (or its sentence) names one of the claim's
 * topic words. A claim that names nothing but a total ("the total was 97,271") may be about any total.
 */
const totalOfTopic = (where: string, words: readonly string[]): boolean =>
  words.length === 0 || words.some((word) => where.includes(word));

/**
 * A figure presented as a total that is the sum of some listed items while the source states a different
 * total: partial data added up and passed off as the whole (20,893 + 76,378 = 97,271 given as the total,
 * when the source's total is 20,875).
 */
export const findPartialAggregation = (
  claimText: string,
  number: ExtractedNumber,
  targets: readonly AggregationTarget[],
  pool: SourcePool,
  work: WorkMeter = { spent: 0, limit: Number.POSITIVE_INFINITY },
): PartialAggregation | undefined | typeof exhausted => {
  if (!totalCue.test(claimText)) return undefined;
  const words = topicWords(claimText);
  const itemsOf = totalItems(pool);
  // Where a total stands (its row label, or its line; both lower case) is read once for the figures of one
  // row or line, which follow each other: a long label would be read again for each of its figures.
  const ofTopic = lastTextMemo((where) => totalOfTopic(where, words));
  for (const total of pool.numbers) {
    if (!total.isTotal || isNil(total)) continue;
    if (!ofTopic(total.table ? total.table.label : total.lineText)) continue;
    for (const target of targets) {
      const totalValues = target.written ? [total.number.value] : total.values;
      if (totalValues.some((value) => Math.abs(value - target.value) <= target.tolerance)) continue;
      const items = itemsOf.get(total) ?? [];
      if (items.length < 2) continue;
      const scaleCount = target.written ? 1 : Math.max(...items.map((item) => item.values.length));
      for (let scaleIndex = 0; scaleIndex < scaleCount; scaleIndex++) {
        const subset = subsetSum(items, target, scaleIndex, work);
        if (!subset) {
          if (work.spent > work.limit) return exhausted;
          continue;
        }
        return {
          text: number.text,
          span: number.span,
          claimedTotal: number.text,
          sourceTotal: total.number.text,
          items: subset.map((item) => item.number.text),
          source: total.source,
        };
      }
    }
  }
  return undefined;
};
