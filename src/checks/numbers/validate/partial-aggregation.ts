import { isNil } from "../derive/dash-cells.js";
import { contentWords } from "../derive/operands.js";
import type { SourceNumber, SourcePool } from "../derive/source-numbers.js";
import type { ExtractedNumber } from "../extract/types.js";
import type { PartialAggregation } from "./validation-result.js";

/** Words that present a figure as a total. */
export const totalCue = /\b(?:total|totals|totalled|totaled|overall|combined|altogether|aggregate|in all)\b/i;

const maxItems = 24;

export interface AggregationTarget {
  readonly value: number;
  readonly tolerance: number;
  /** Compare against the items' values as written (bare), rather than scaled. */
  readonly written: boolean;
}

/** The items a stated total sums: cells above it in its table column, or the other figures of its text. */
const itemsOf = (total: SourceNumber, pool: SourcePool): SourceNumber[] => {
  if (total.table) {
    const { block, column, row } = total.table;
    const column_ = pool.numbers.filter(
      (n) =>
        n.source === total.source &&
        n.table?.block === block &&
        n.table.column === column &&
        n.table.row < row,
    );
    const lastTotal = column_.filter((n) => n.isTotal).at(-1)?.table?.row ?? -1;
    return column_
      .filter((n) => !n.isTotal && !n.inLabel && !isNil(n) && (n.table?.row ?? 0) > lastTotal)
      .slice(-maxItems);
  }
  return pool.numbers
    .filter((n) => n.source === total.source && !n.table && !n.isTotal && n.number.kind === total.number.kind)
    .slice(0, maxItems);
};

const itemValue = (item: SourceNumber, written: boolean, scaleIndex: number): number =>
  written ? item.number.value : (item.values[scaleIndex] ?? item.number.scaled);

/** The first subset of 2 to 4 items whose sum hits the target (4 only for short lists), or undefined. */
const subsetSum = (
  items: readonly SourceNumber[],
  target: AggregationTarget,
  scaleIndex: number,
): SourceNumber[] | undefined => {
  const values = items.map((item) => itemValue(item, target.written, scaleIndex));
  const hits = (sum: number) => Math.abs(sum - target.value) <= target.tolerance;
  const n = values.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const two = (values[i] ?? 0) + (values[j] ?? 0);
      if (hits(two)) return [items[i], items[j]] as SourceNumber[];
      for (let k = j + 1; k < n; k++) {
        const three = two + (values[k] ?? 0);
        if (hits(three)) return [items[i], items[j], items[k]] as SourceNumber[];
        if (n > 16) continue;
        for (let l = k + 1; l < n; l++) {
          if (hits(three + (values[l] ?? 0)))
            return [items[i], items[j], items[k], items[l]] as SourceNumber[];
        }
      }
    }
  }
  return undefined;
};

/** The claim's words that say what is totalled ("options volume"), without the words that say it is a total. */
const topicWords = (claimText: string): string[] =>
  contentWords(claimText.replace(new RegExp(totalCue.source, "gi"), " "));

/**
 * Whether a stated total is of what the claim totals: its row label (or its sentence) names one of the claim's
 * topic words. A claim that names nothing but a total ("the total was 97,271") may be about any total.
 */
const totalOfTopic = (total: SourceNumber, words: readonly string[]): boolean => {
  if (words.length === 0) return true;
  const where = (total.table ? total.table.label : total.lineText).toLowerCase();
  return words.some((word) => where.includes(word));
};

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
): PartialAggregation | undefined => {
  if (!totalCue.test(claimText)) return undefined;
  const words = topicWords(claimText);
  for (const total of pool.numbers) {
    if (!total.isTotal || isNil(total) || !totalOfTopic(total, words)) continue;
    for (const target of targets) {
      const totalValues = target.written ? [total.number.value] : total.values;
      if (totalValues.some((value) => Math.abs(value - target.value) <= target.tolerance)) continue;
      const items = itemsOf(total, pool);
      if (items.length < 2) continue;
      const scaleCount = target.written ? 1 : Math.max(...items.map((item) => item.values.length));
      for (let scaleIndex = 0; scaleIndex < scaleCount; scaleIndex++) {
        const subset = subsetSum(items, target, scaleIndex);
        if (!subset) continue;
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
