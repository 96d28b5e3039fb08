import type { Operand } from "./operands.js";
import type { SourceNumber } from "./source-numbers.js";

// Made once: a regular expression literal is a new object each time it is evaluated.
const startsWithTotal = /^total\s/;
const respectively = /\brespectively\b/;

/**
 * Figures of prose in two paragraphs that state the same kind of thing at two dates ("In March 2017, we
 * granted 320,000 PSUs" ... "In November 2019, we granted 298,500 PSUs"): each sentence has its period, and the
 * figures count the same noun.
 */
const parallelStatements = (x: SourceNumber, y: SourceNumber): boolean =>
  x.year !== undefined &&
  y.year !== undefined &&
  x.countedNoun !== undefined &&
  x.countedNoun === y.countedNoun;

/**
 * Operands that can be combined: figures of one table row or one table column, of one paragraph of prose
 * (or of two paragraphs stating the same thing at two dates), or a table figure and a sentence that names
 * its row, in the same scale. Calculator outputs and figures the answer quotes combine with anything.
 */
export const related = (a: Operand, b: Operand): boolean => {
  const x = a.parts[0];
  const y = b.parts[0];
  if (!x || !y || a.parts.length > 1 || b.parts.length > 1 || x.inLabel || y.inLabel) return false;
  if (x.source < 0 || y.source < 0) return true;
  if ((a.raw ?? false) !== (b.raw ?? false) || x.source !== y.source) return false;
  if (x.table && y.table) {
    return (
      x.table.block === y.table.block && (x.table.row === y.table.row || x.table.column === y.table.column)
    );
  }
  if (!x.table && !y.table) return x.paragraph === y.paragraph || parallelStatements(x, y);
  // A sentence of prose that names a table row ("Packaging was understated by $215.4 million") speaks of it.
  const [cell, prose] = x.table ? [x, y] : [y, x];
  const label = cell.table?.label ?? "";
  return (
    namesRow(prose.lineText, label) ||
    // A sentence listing figures year by year ("for 2019, 2018 and 2017, respectively") reports the periods of
    // the table's columns: its figure of a year combines with the table's figures of that year.
    (prose.year !== undefined && prose.year === cell.year && respectively.test(prose.lineText))
  );
};

/**
 * Whether a sentence names a table row: its label, or the label of a row of totals without "Total"
 * ("unrecognized stock-based compensation expense" names the "Total stock-based compensation expense" row).
 */
/** What a "total ..." label totals ("total revenues" totals "revenues"), when that is at least 4 characters. */
const totalOf = (label: string): string | undefined => {
  if (!startsWithTotal.test(label) || label.includes("\n")) return undefined;
  const item = label.slice("total".length).trimStart();
  return item.length >= 4 ? item : undefined;
};

const namesRow = (sentence: string, label: string): boolean => {
  if (label.length >= 4 && sentence.includes(label)) return true;
  const item = totalOf(label);
  return item !== undefined && sentence.includes(item);
};
