import type { Span } from "../../../model/span.js";

/**
 * What a number in text stands for. Only quantities, percents, percentage points and currency amounts are
 * checked against sources; dates, years, times, durations ("a 3 year period"), ordinals, versions and
 * identifiers are typed so they are never treated as quantities.
 */
export type NumberKind =
  | "quantity"
  | "percent"
  | "percentage-points"
  | "currency"
  | "year"
  | "date"
  | "time"
  | "duration"
  | "ordinal"
  | "version"
  | "identifier";

export interface ExtractedNumber {
  /** The number as written, with its sign, currency, unit and scale word. */
  readonly text: string;
  /** Offsets into the text it was extracted from. */
  readonly span: Span;
  readonly kind: NumberKind;
  /** The written value with its sign, before the scale: "$12.6 million" is 12.6. */
  readonly value: number;
  /** The same value as an exact decimal string ("-12.6"). */
  readonly literal: string;
  /** Multiplier of the scale word or suffix: 1, 1e3, 1e6, 1e9, 1e12. */
  readonly scale: number;
  /** Whether the scale was written with the number (false when it is 1 by default). */
  readonly scaleWritten: boolean;
  /** `value * scale`. */
  readonly scaled: number;
  /** Digits written after the decimal separator: the precision the number was written with. */
  readonly decimals: number;
  /** "%", "pp", "bps" or an ISO currency code, when written. */
  readonly unit: string | undefined;
  /** Written with "about", "~", "roughly"... */
  readonly approximate: boolean;
  /** One end of a range such as "10-12 million". */
  readonly inRange: boolean;
  /** Written as a word ("three"). */
  readonly fromWords: boolean;
}

/**
 * A copy of `number` with some fields changed (a change of undefined keeps the field). Every
 * `ExtractedNumber` is written field by field in the interface's order, never spread (`{ ...number, span }`):
 * one object literal's site gives its objects one hidden class, where spread copies took a class of their own,
 * and the numbers layer reads these objects in its inner loops.
 */
export const numberWith = (number: ExtractedNumber, changes: Partial<ExtractedNumber>): ExtractedNumber => ({
  text: changes.text ?? number.text,
  span: changes.span ?? number.span,
  kind: changes.kind ?? number.kind,
  value: changes.value ?? number.value,
  literal: changes.literal ?? number.literal,
  scale: changes.scale ?? number.scale,
  scaleWritten: changes.scaleWritten ?? number.scaleWritten,
  scaled: changes.scaled ?? number.scaled,
  decimals: changes.decimals ?? number.decimals,
  unit: changes.unit ?? number.unit,
  approximate: changes.approximate ?? number.approximate,
  inRange: changes.inRange ?? number.inRange,
  fromWords: changes.fromWords ?? number.fromWords,
});

export interface ExtractOptions {
  /** "," reads "1.234,5" as 1234.5 (decimal-comma locales). Default ".". */
  readonly decimalSeparator?: "." | ",";
  /** Most numbers extracted from one text; the rest are ignored (default 5,000). */
  readonly maxNumbers?: number;
  /**
   * The text is the value asked for by a question about an amount ("What is the average revenue?" answered
   * "1989"): a four-digit integer in it is that amount, not a year. Default false.
   */
  readonly yearsAreValues?: boolean;
}

/** Whether a number is a checkable amount rather than a date, a year, a time, an ordinal or a label. */
export const isQuantity = (number: ExtractedNumber): boolean =>
  number.kind === "quantity" ||
  number.kind === "percent" ||
  number.kind === "percentage-points" ||
  number.kind === "currency";
