import { eachMatch } from "../../../text/each-match.js";
import { spanIndex } from "../../../text/span-index.js";
import { readPrefix, readSuffix } from "./affixes.js";
import { isFootnoteMark } from "./footnote-marks.js";
import { findTypedSpans, type TypedSpan } from "./typed-spans.js";
import { type ExtractedNumber, type ExtractOptions, type NumberKind, numberWith } from "./types.js";
import { wordNumberPattern, wordNumberValue } from "./word-numbers.js";

const pointPattern =
  /(?<![\p{L}\p{N}_]|\p{N}[.,])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?!\p{N})|(?<![\p{N}.])\.\d+(?!\p{N})/gu;
const commaPattern = /(?<![\p{L}\p{N}_]|\p{N}[.,])(?:\d{1,3}(?:\.\d{3})+|\d+)(?:,\d+)?(?!\p{N})/gu;

const ordinalAfter = /^(?:st|nd|rd|th)\b/i;
const identifierAfter = /^(?:[A-Za-z_]|-[A-Z]{1,2}\b)/;
const defaultMaxNumbers = 5_000;
const durationAfter = /^[ -](?:years?|months?|weeks?|days?|hours?|minutes?|quarters?)\b/i;

// The grouping marks a figure drops, made once (a regular expression literal is a new object each time it is
// evaluated, and this one was evaluated for every figure).
const groupingCommas = /,/g;
const groupingPoints = /\./g;

/** "1,234.50" (or "1.234,50" with a decimal comma) as a plain decimal literal and its written precision. */
const normalizeDigits = (
  digits: string,
  decimalSeparator: "." | ",",
): { literal: string; decimals: number } => {
  // Most numbers have no separator to remove or replace.
  const ungrouped = digits.includes(decimalSeparator === "." ? "," : ".")
    ? digits.replace(decimalSeparator === "." ? groupingCommas : groupingPoints, "")
    : digits;
  const plain = ungrouped.includes(",") ? ungrouped.replace(",", ".") : ungrouped;
  const dot = plain.indexOf(".");
  const literal = dot === 0 ? `0${plain}` : plain;
  return { literal, decimals: dot === -1 ? 0 : plain.length - dot - 1 };
};

// Expressions read for each number, made once: a regular expression literal is a new object each time it is
// evaluated, and these are evaluated for every figure of every source.
const fourDigits = /^\d{4}$/;
const leadingWord = /^\w+/;
const millionsLetter = /^m\b/;
const letterOrMark = /[\p{L}_#]/u;
const leadingIdentifier = /^[-\w]*/;
/** A closing bracket right after a figure, maybe after one space: "(12)", "(12 )". */
const closingBracket = /^[ \u00a0]?\)/;
const rangeJoiner = /^(?:[-–]|\s?–\s?|\s+to\s+)$/;

const isYear = (literal: string, digits: string): boolean =>
  digits.length === 4 && fourDigits.test(digits) && Number(literal) >= 1800 && Number(literal) <= 2199;

/**
 * "The total was 2149", "the answer is 2026", "= 1989": a four-digit figure stated as the value of something is
 * a quantity, not a year, unless what it is the value of is a year ("the year was 2019").
 */
const statedValue = /\b(?:was|were|is|are|equals?|equalled|totall?ed|amounted to)\s+$|=\s*$/i;
const periodSubject = /\b(?:year|fy|fiscal|period|date|since|until|in)\b[^.;:]{0,12}$/i;
const isStatedValue = (before: string): boolean =>
  statedValue.test(before) && !periodSubject.test(before.replace(statedValue, ""));

/**
 * A number that is not a quantity (a date, a year, an identifier...), with the value it is read as, if any.
 * Every `ExtractedNumber` is built with all its fields in this order, so they all share one hidden class.
 */
const typedEntry = (text: string, typed: TypedSpan, value = Number.NaN): ExtractedNumber => ({
  text: text.slice(typed.span.start, typed.span.end),
  span: typed.span,
  kind: typed.kind,
  value,
  literal: "",
  scale: 1,
  scaleWritten: false,
  scaled: Number.NaN,
  decimals: 0,
  unit: undefined,
  approximate: false,
  inRange: false,
  fromWords: false,
});

const kindOf = (unit: string | undefined, currency: string | undefined): NumberKind => {
  if (unit === "%") return "percent";
  if (unit === "pp" || unit === "bps") return "percentage-points";
  return currency ? "currency" : "quantity";
};

/** Reads one written number at `[start, end)` with what surrounds it. */
const readNumber = (text: string, start: number, end: number, options: ExtractOptions): ExtractedNumber => {
  const digits = text.slice(start, end);
  const { literal: unsigned, decimals } = normalizeDigits(digits, options.decimalSeparator ?? ".");
  const after = text.slice(end, end + 40);
  const before = text.slice(Math.max(0, start - 40), start);
  const charBefore = before.at(-1) ?? "";
  if (ordinalAfter.test(after)) {
    const length = leadingWord.exec(after)?.[0].length ?? 2;
    return typedEntry(text, { kind: "ordinal", span: { start, end: end + length } }, Number(unsigned));
  }
  if (charBefore === "(" && text[end] === ")" && isFootnoteMark(text, start - 1, end + 1)) {
    return typedEntry(text, { kind: "identifier", span: { start: start - 1, end: end + 1 } });
  }
  const prefix = readPrefix(before);
  let suffix = readSuffix(after);
  if (prefix.currency && !suffix.scaleWritten && millionsLetter.test(after)) {
    suffix = { ...suffix, length: 1, multiplier: 1e6, scaleWritten: true };
  }
  const labelled = identifierAfter.test(after) && !suffix.scaleWritten && !suffix.unit;
  if (letterOrMark.test(charBefore) || labelled) {
    const length = leadingIdentifier.exec(after)?.[0].length ?? 0;
    return typedEntry(text, { kind: "identifier", span: { start, end: end + length } });
  }
  const currency = prefix.currency ?? suffix.currency;
  const plainInteger = !prefix.signed && !currency && !suffix.unit && !suffix.scaleWritten && decimals === 0;
  if (plainInteger && isYear(unsigned, digits) && !options.yearsAreValues && !isStatedValue(before)) {
    return typedEntry(text, { kind: "year", span: { start, end } }, Number(unsigned));
  }
  if (plainInteger && durationAfter.test(after)) {
    return typedEntry(text, { kind: "duration", span: { start, end } }, Number(unsigned));
  }
  let spanStart = start - prefix.length;
  let spanEnd = end + suffix.length;
  let sign = prefix.sign;
  if (
    !prefix.signed &&
    text[spanStart - 1] === "(" &&
    closingBracket.test(text.slice(spanEnd, spanEnd + 2))
  ) {
    sign = -1;
    spanStart -= 1;
    spanEnd = text.indexOf(")", spanEnd) + 1;
  }
  const literal = sign === -1 && Number(unsigned) !== 0 ? `-${unsigned}` : unsigned;
  const multiplier = suffix.unit === "bps" ? 0.01 : suffix.multiplier;
  const value = Number(literal);
  return {
    text: text.slice(spanStart, spanEnd),
    span: { start: spanStart, end: spanEnd },
    kind: kindOf(suffix.unit, currency),
    value,
    literal,
    scale: multiplier,
    scaleWritten: suffix.scaleWritten,
    scaled: value * multiplier,
    decimals,
    unit: suffix.unit ? suffix.unit : currency ? currency : undefined,
    approximate: prefix.approximate,
    inRange: false,
    fromWords: false,
  };
};

/** Ranges "10-12 million", "10–12%" and "10 to 12": both ends are marked and share the written scale and unit. */
const linkRanges = (text: string, numbers: ExtractedNumber[]): ExtractedNumber[] => {
  // Copied at the first range: most texts hold none.
  let linked = numbers;
  for (let i = 0; i + 1 < linked.length; i++) {
    const low = linked[i] as ExtractedNumber;
    const high = linked[i + 1] as ExtractedNumber;
    if (low.kind !== "quantity" && low.kind !== high.kind) continue;
    const between = text.slice(low.span.end, high.span.start);
    if (!rangeJoiner.test(between)) continue;
    const scale = low.scaleWritten ? low.scale : high.scale;
    if (linked === numbers) linked = [...numbers];
    linked[i] = numberWith(low, {
      kind: high.kind,
      scale,
      scaled: low.value * scale,
      scaleWritten: low.scaleWritten || high.scaleWritten,
      inRange: true,
      // An empty unit never replaces the low end's.
      unit: high.unit ? high.unit : low.unit,
    });
    linked[i + 1] = numberWith(high, { inRange: true });
  }
  return linked;
};

const anyDigit = /\d/;

const wordNumbers = (text: string, taken: (start: number, end: number) => boolean): ExtractedNumber[] => {
  const found: ExtractedNumber[] = [];
  eachMatch(wordNumberPattern, text, (match) => {
    const start = match.index;
    const end = start + match[0].length;
    if (taken(start, end)) return;
    const value = wordNumberValue(match[1], match[2], match[3]);
    const suffix = readSuffix(text.slice(end, end + 40));
    const multiplier = suffix.unit === "bps" ? 0.01 : suffix.multiplier;
    found.push({
      text: text.slice(start, end + suffix.length),
      span: { start, end: end + suffix.length },
      kind: kindOf(suffix.unit, suffix.currency),
      value,
      literal: String(value),
      scale: multiplier,
      scaleWritten: suffix.scaleWritten,
      scaled: value * multiplier,
      decimals: 0,
      unit: suffix.unit ? suffix.unit : suffix.currency ? suffix.currency : undefined,
      approximate: false,
      inRange: false,
      fromWords: true,
    });
  });
  return found;
};

/**
 * Whether a word number's place overlaps a number read before (found by halves: see `spanIndex`). The index
 * is built at the first word number: most texts with digits hold none, and `numbers` is not changed while the
 * word numbers are read.
 */
const takenBy = (numbers: readonly ExtractedNumber[]) => {
  let index: ReturnType<typeof spanIndex> | undefined;
  return (start: number, end: number): boolean => {
    index ??= spanIndex(numbers.map((number) => number.span));
    return index.meets({ start, end });
  };
};

/**
 * Every number in a text, in order, each with its exact span, kind, signed value, scale, unit and written
 * precision. Dates, years, times, ordinals, versions and identifiers are returned with their kind so that
 * callers can leave them out of numeric checks (see `isQuantity`).
 */
export const extractNumbers = (text: string, options: ExtractOptions = {}): ExtractedNumber[] => {
  const limit = options.maxNumbers ?? defaultMaxNumbers;
  // Without a digit only number words can be read: most lines of prose hold none.
  if (!anyDigit.test(text))
    return linkRanges(text, inTextOrder(wordNumbers(text, () => false).slice(0, limit)));
  const typed = findTypedSpans(text);
  const numbers: ExtractedNumber[] = typed.map((entry) => typedEntry(text, entry));
  const pattern = options.decimalSeparator === "," ? commaPattern : pointPattern;
  // Matches come in order, so `taken` is answered without a scan: typed spans are sorted and never overlap, and
  // a number read here starts before the next match, so only the furthest end of those read so far matters.
  let nextTyped = 0;
  let readEnd = Number.NEGATIVE_INFINITY;
  eachMatch(pattern, text, (match) => {
    if (numbers.length >= limit) return false;
    const start = match.index;
    const end = start + match[0].length;
    while (nextTyped < typed.length && (typed[nextTyped] as TypedSpan).span.end <= start) nextTyped += 1;
    const inTyped = nextTyped < typed.length && (typed[nextTyped] as TypedSpan).span.start < end;
    if (inTyped || start < readEnd) return true;
    const number = readNumber(text, start, end, options);
    numbers.push(number);
    readEnd = Math.max(readEnd, number.span.end);
    return true;
  });
  if (numbers.length < limit)
    numbers.push(...wordNumbers(text, takenBy(numbers)).slice(0, limit - numbers.length));
  return linkRanges(text, inTextOrder(numbers));
};

/**
 * The numbers by where they start, equal starts in their order (the stable sort's order). Most lists come in
 * that order already: a look over them costs less than the sort's copy.
 */
const inTextOrder = (numbers: ExtractedNumber[]): ExtractedNumber[] => {
  for (let i = 1; i < numbers.length; i++)
    if ((numbers[i] as ExtractedNumber).span.start < (numbers[i - 1] as ExtractedNumber).span.start)
      return numbers.sort((a, b) => a.span.start - b.span.start);
  return numbers;
};
