import type { ExtractedNumber } from "../extract/types.js";
import type { SourceNumber } from "./source-number.js";

/**
 * A cell holding only a dash ("—", "–", "-"), with an optional currency sign: nil. Tested on the trimmed cell,
 * so no two whitespace runs compete for the same characters.
 */
const dashCell = /^(?:\$\s*)?[—–-]$/;
/** A figure written as a dash alone (a regular expression literal is a new object each time it is evaluated). */
const onlyDash = /^[—–-]$/;

/** Any of the dashes a nil cell is written with. */
const anyDash = /[—–-]/;

/** A nil cell read as zero: an operand of a change only, never an item of a sum, an average or a total. */
export const isNil = (figure: SourceNumber): boolean =>
  figure.number.value === 0 && onlyDash.test(figure.number.text);

/**
 * The nil cells of a table line ("Realized gains | — | (31,904)") as zero figures: a change from a nil year to
 * a figure is that figure (0 - (-31,904) = 31,904). Offsets are into `line`.
 */
export const dashCells = (line: string): ExtractedNumber[] => {
  const zeros: ExtractedNumber[] = [];
  // Most lines hold no dash at all: one look says so.
  if (!anyDash.test(line)) return zeros;
  let start = line.indexOf("|") + 1;
  while (start > 0) {
    const end = line.indexOf("|", start);
    const cell = line.slice(start, end === -1 ? undefined : end);
    if (dashCell.test(cell.trim())) {
      const at = start + cell.search(anyDash);
      zeros.push({
        text: line.slice(at, at + 1),
        span: { start: at, end: at + 1 },
        kind: "quantity",
        value: 0,
        literal: "0",
        scale: 1,
        scaleWritten: false,
        scaled: 0,
        decimals: 0,
        unit: undefined,
        approximate: false,
        inRange: false,
        fromWords: false,
      });
    }
    start = end + 1;
  }
  return zeros;
};
