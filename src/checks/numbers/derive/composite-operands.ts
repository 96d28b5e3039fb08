import { trimEndWhere } from "../../../text/trim.js";
import type { DerivationKind } from "./formula.js";
import type { Operand } from "./operands.js";
import { periodComparison } from "./period-order.js";
import { negligible } from "./search.js";
import type { SourceNumber } from "./source-numbers.js";

/**
 * The first step of a second-level derivation: sums, averages and differences of two figures that the claim
 * names as items (two rows of a column by their labels, two columns of a row by their headers), aligned in
 * one row, column or paragraph and read in one scale.
 */

export type Inner = "sum" | "average" | "difference";

/**
 * Whether two figures sit in one table row (same source, table and row), or in one paragraph of prose. Compared
 * field by field: the pair loops ask this of every pair of figures, and a key string made per figure and
 * pair was most of what those loops allocated.
 */
export const sameRow = (a: SourceNumber, b: SourceNumber): boolean =>
  a.source === b.source &&
  (a.table === undefined || b.table === undefined
    ? a.table === b.table && a.paragraph === b.paragraph
    : a.table.block === b.table.block && a.table.row === b.table.row);

/** Whether two figures sit in one table column (same source, table and column), or in one paragraph of prose. */
export const sameColumn = (a: SourceNumber, b: SourceNumber): boolean =>
  a.source === b.source &&
  (a.table === undefined || b.table === undefined
    ? a.table === b.table && a.paragraph === b.paragraph
    : a.table.block === b.table.block && a.table.column === b.table.column);

export const single = (operand: Operand): SourceNumber | undefined =>
  operand.parts.length === 1 && operand.combine === "value" ? operand.parts[0] : undefined;

/**
 * Two figures of one row, one column or one paragraph, read in the same way (both bare or both in the same
 * declared scale), neither a thousand times smaller than the other (two units, not two items).
 */
const aligned = (a: Operand, b: Operand): boolean => {
  const x = a.parts[0];
  const y = b.parts[0];
  if (!x || !y || x.id === y.id || (a.raw ?? false) !== (b.raw ?? false) || a.scale !== b.scale) return false;
  if (negligible(a.value, b.value)) return false;
  return sameRow(x, y) || sameColumn(x, y);
};

/** The period of a combination: the later year of its two figures, when both have one. */
const latestYear = (a: Operand, b: Operand): number | undefined =>
  a.year === undefined || b.year === undefined ? undefined : Math.max(a.year, b.year);

export const combined = (
  combine: Inner,
  a: Operand,
  b: Operand,
  value: number,
  parts = [...a.parts, ...b.parts],
): Operand => ({
  value,
  raw: a.raw ? true : undefined,
  parts,
  combine,
  scale: a.scale,
  year: latestYear(a, b),
  rank: Math.min(a.rank, b.rank),
  isPercent: a.isPercent && b.isPercent,
});

/**
 * A difference with a direction: the later period minus the earlier one, or, within one period, the item
 * the claim names first minus the one it names second ("the difference between EBITDA and underlying EBITDA").
 */
const directed = (a: Operand, b: Operand, claim: string): boolean => {
  const order = periodComparison(a, b);
  if (order !== undefined && order !== 0) return order > 0;
  const first = namedAt(a.parts[0], claim);
  const second = namedAt(b.parts[0], claim);
  return first >= 0 && second >= 0 && first < second;
};

/** Where the claim names a figure's row ("defined benefit schemes"), or -1. */
const namedAt = (part: SourceNumber | undefined, claim: string): number =>
  nameAt(part?.table ? rowName(part.table.label) : "", claim);

/** Where the claim names a figure's column by its header words ("process technologies"), or -1. */
const headerNamedAt = (part: SourceNumber | undefined, claim: string): number => {
  const header = part?.table?.header;
  return header === undefined || totalWords.test(header) ? -1 : nameAt(rowName(header), claim);
};

const totalWords = /\b(?:total|totals|overall|aggregate|combined)\b/;

const nameAt = (name: string, claim: string): number => (name.length >= 3 ? claim.indexOf(name) : -1);

/**
 * Whether the claim names the two items: two rows of a column by their labels; two columns of a row by their
 * headers, or the row itself (its periods are then the items: "the 2019 and 2018 average of free cash flow").
 */
const itemsNamed = (a: SourceNumber, b: SourceNumber, claim: string): boolean => {
  if (sameRow(a, b)) {
    return namedAt(a, claim) >= 0 || (headerNamedAt(a, claim) >= 0 && headerNamedAt(b, claim) >= 0);
  }
  return namedAt(a, claim) >= 0 && namedAt(b, claim) >= 0;
};

/** "Land and leasehold improvements": the claim joins the two items' names with "and", naming their sum. */
const joinedByAnd = (a: SourceNumber, b: SourceNumber, claim: string): boolean => {
  const same = sameRow(a, b);
  const nameOf = (part: SourceNumber) => rowName((same ? part.table?.header : part.table?.label) ?? "");
  const x = nameOf(a);
  const y = nameOf(b);
  return (
    x.length >= 3 && y.length >= 3 && (claim.includes(`${x} and ${y}`) || claim.includes(`${y} and ${x}`))
  );
};

/** A row label without its footnote marks and trailing punctuation: "other foreign borrowings(1)" names "other foreign borrowings". */
const rowName = (label: string): string =>
  trimEndWhere(
    label.replace(/\(\s*(?:\d{1,2}|[a-z])\s*\)|\*+/g, ""),
    (character) => !letterOrDigit.test(character),
  ).trim();

const letterOrDigit = /[\p{L}\p{N}]/u;

/**
 * Sums, averages and directed differences of two aligned figures of rows the claim names: an aggregate is
 * taken only of items the claim speaks of.
 */
export const innerCombinations = (
  figures: readonly Operand[],
  kinds: ReadonlySet<DerivationKind>,
  claim: string,
  namedSums: Set<Operand>,
): Operand[] => {
  const found: Operand[] = [];
  for (let i = 0; i < figures.length; i++) {
    for (let j = i + 1; j < figures.length; j++) {
      const a = figures[i] as Operand;
      const b = figures[j] as Operand;
      const x = a.parts[0] as SourceNumber;
      const y = b.parts[0] as SourceNumber;
      if (!aligned(a, b) || !itemsNamed(x, y, claim)) continue;
      // A sum is also the first step of an average of three items, and "A and B" names one.
      if (kinds.has("sum") || kinds.has("average")) found.push(combined("sum", a, b, a.value + b.value));
      else if (joinedByAnd(x, y, claim)) {
        const sum = combined("sum", a, b, a.value + b.value);
        namedSums.add(sum);
        found.push(sum);
      }
      if (kinds.has("average")) found.push(combined("average", a, b, (a.value + b.value) / 2));
      if (kinds.has("difference")) {
        if (directed(a, b, claim)) found.push(combined("difference", a, b, a.value - b.value));
        else if (directed(b, a, claim)) found.push(combined("difference", b, a, b.value - a.value));
      }
    }
  }
  return found;
};
