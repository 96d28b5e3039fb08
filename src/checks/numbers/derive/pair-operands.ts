import { isNil } from "./dash-cells.js";
import type { DerivationKind } from "./formula.js";
import type { Operand } from "./operands.js";
import type { SourceNumber } from "./source-numbers.js";

/** A nil cell ("—") read as zero: only the change from or to it is a derivation. */
const nilFigure = (operand: Operand): boolean =>
  operand.parts.length === 1 && isNil(operand.parts[0] as SourceNumber);

const writtenAsPercent = (operand: Operand) =>
  operand.parts.length === 1 && operand.parts[0]?.number.kind === "percent";

/** `share` is a positive percent written as such, `part` a figure that is not one ("12% ..., or 840"). */
const isShareOf = (share: Operand, part: Operand): boolean =>
  writtenAsPercent(share) && share.value > 0 && !writtenAsPercent(part);

/** Where a table figure is named: its row label, the heading of its rows and its column header. */
const headings = (operand: Operand): string => {
  const figure = operand.parts.length === 1 ? operand.parts[0] : undefined;
  const place = figure?.table;
  return place ? `${place.label} | ${figure?.rowHeading ?? ""} | ${place.header ?? ""}` : "";
};

const pricePerUnit = /\bper\s+(?:share|unit)\b|\bprice\b/;
const countOfUnits = /\b(?:number\s+of\s+(?:shares|units|options)|shares|units)\b/;

/** One figure headed as a count of shares or units, the other as a price per share or unit. */
const countAndPrice = (a: Operand, b: Operand): boolean => {
  const [first, second] = [headings(a), headings(b)];
  const isPrice = (text: string) => pricePerUnit.test(text);
  const isCount = (text: string) => countOfUnits.test(text) && !isPrice(text);
  return (isCount(first) && isPrice(second)) || (isPrice(first) && isCount(second));
};

const revenueRow = /^(?:total\s+)?(?:net\s+)?(?:revenues?|sales)$/;
const incomeRow = /^(?:operating|net)\s+income$/;

/** A revenue figure and an income figure of one period (one table column). */
const revenueAndIncome = (revenue: Operand, income: Operand): boolean => {
  const [a, b] = [revenue.parts[0]?.table, income.parts[0]?.table];
  if (!a || !b || revenue.parts.length !== 1 || income.parts.length !== 1 || a.column !== b.column)
    return false;
  const label = (text: string) => {
    const footnote = /\(\d{1,2}\)$/.exec(text);
    return (footnote === null ? text : text.slice(0, footnote.index)).trim();
  };
  return revenueRow.test(label(a.label)) && incomeRow.test(label(b.label));
};

/**
 * Whether two operands may enter a pair derivation of `kind` (`a` first): a nil cell only into a change; a
 * whole only from a percent share and a figure; a product only of a count and a price per unit; expenses
 * only from revenue and income.
 */
export const operandsFit = (kind: DerivationKind, a: Operand, b: Operand): boolean => {
  if (kind !== "difference" && (nilFigure(a) || nilFigure(b))) return false;
  if (kind === "whole-of-share") return isShareOf(b, a);
  if (kind === "per-unit-product") return countAndPrice(a, b);
  if (kind === "expenses") return revenueAndIncome(a, b);
  return true;
};
