import { hasDigit } from "../../text/ascii.js";
import { tensWords, unitWords } from "../../text/number-words.js";
import { stem, type Token } from "../../text/tokens.js";
import type { ClaimContext, GroundingFinding } from "./claim-context.js";
import { findSwap } from "./neighbourhood.js";

const numberWords: ReadonlyMap<string, number> = new Map(
  Object.entries({
    zero: 0,
    ...unitWords,
    ...tensWords,
    hundred: 100,
    once: 1,
    twice: 2,
    single: 1,
    dozen: 12,
    half: 0.5,
    one: 1,
    first: 1,
    second: 2,
    third: 3,
  }),
);

// Expressions read for each figure of each claim, made once: a regular expression literal is a new object each
// time it is evaluated.
const groupingComma = /,(?=\d{3}\b)/g;
const plainDecimal = /^\d+(?:\.\d+)?$/;
const commas = /,/g;
const numberRange = /^(\d[\d,.]*)-(\d[\d,.]*)$/;

/** The numeric value of a token such as "1,452.4", "3.5", "12%", "2019" or "three"; undefined otherwise. */
export const numericValue = (lower: string): number | undefined => {
  const word = numberWords.get(lower);
  if (word !== undefined) return word;
  if (!hasDigit(lower)) return undefined;
  const cleaned = lower.replace(groupingComma, "");
  if (!plainDecimal.test(cleaned)) return undefined;
  return Number(cleaned);
};

const decimalsOf = (lower: string): number => {
  const dot = lower.indexOf(".");
  return dot === -1 ? 0 : lower.length - dot - 1;
};

/** Whether a number written with `decimals` places could be a rounding of `source`. */
const matchesWithRounding = (claimed: number, decimals: number, source: number): boolean => {
  if (Math.abs(claimed - source) <= 1e-9 * Math.max(1, Math.abs(source))) return true;
  const factor = 10 ** decimals;
  return decimals < 6 && Math.round(source * factor) / factor === claimed && Math.abs(claimed - source) < 0.5;
};

/** The distinct numbers of the sources, and the same as a set for the common exact match. */
interface SourceValues {
  readonly list: readonly number[];
  readonly set: ReadonlySet<number>;
}

const sourceValues = new WeakMap<object, SourceValues>();

/** Number words by their stem ("thre" for "three"): the index keeps stems, not the words. */
const numberWordsByStem: ReadonlyMap<string, number> = new Map(
  [...numberWords].map(([word, value]) => [stem(word), value] as const),
);

/**
 * Every distinct number the sources mention, read off the index's stems (a number's stem is the number
 * itself), so no passage has to be tokenized for it: the stems written with digits, found by a look over the
 * stems, and the number words, each looked up in the index (a few dozen look-ups, where asking every stem of
 * the sources whether it is a number word was one look-up per stem).
 */
const valuesOf = (context: ClaimContext): SourceValues => {
  const cached = sourceValues.get(context.index);
  if (cached) return cached;
  const list: number[] = [];
  for (const indexed of context.index.postings.keys()) {
    if (!hasDigit(indexed)) continue;
    const value = numericValue(indexed);
    if (value !== undefined) list.push(value);
  }
  for (const [wordStem, value] of numberWordsByStem) if (context.index.stems.has(wordStem)) list.push(value);
  const values = { list, set: new Set(list) };
  sourceValues.set(context.index, values);
  return values;
};

/** Whether some number of the sources matches the claimed one, exactly (one look-up) or as its rounding. */
const inSources = (values: SourceValues, claimed: number, decimals: number): boolean =>
  (Number.isFinite(claimed) && values.set.has(claimed)) ||
  values.list.some((source) => matchesWithRounding(claimed, decimals, source));

/** A range such as "4-7" or "2019-2021" is checked as its two ends. */
const splitRange = (token: Token): Token[] => {
  const match = numberRange.exec(token.lower);
  if (!match?.[1] || !match[2]) return [token];
  const first = match[1];
  const second = match[2];
  const secondStart = token.span.start + first.length + 1;
  return [
    {
      ...token,
      text: first,
      lower: first,
      stem: first,
      span: { start: token.span.start, end: token.span.start + first.length },
    },
    {
      ...token,
      text: second,
      lower: second,
      stem: second,
      span: { start: secondStart, end: secondStart + second.length },
    },
  ];
};

/**
 * The tokens with each range ("4-7") split into its two ends. Only a token with a hyphen can be a range, and
 * few are: a claim without one keeps its own list, and one with "year-over-year" copies it only from a range on.
 */
const withRangeEnds = (tokens: readonly Token[]): readonly Token[] => {
  let split: Token[] | undefined;
  for (let at = 0; at < tokens.length; at++) {
    const token = tokens[at] as Token;
    const ends = token.lower.includes("-") ? splitRange(token) : undefined;
    if (ends !== undefined && ends.length > 1) {
      split ??= tokens.slice(0, at);
      split.push(...ends);
    } else split?.push(token);
  }
  return split ?? tokens;
};

/**
 * The figures written with digits in the passages a claim matches best: rivals for a figure's slot. Read off
 * the stems the index keeps, without tokenizing the passages: a word with a digit is its own stem (the stemmer
 * leaves such words alone), and a word without one has no digit in its stem.
 */
export const passageFigures = (context: Pick<ClaimContext, "aligned">): Set<string> => {
  const figures = new Set<string>();
  for (const passage of context.aligned)
    for (const stem of passage.stemSequence) if (hasDigit(stem)) figures.add(stem);
  return figures;
};

/**
 * Numbers written with digits in a claim that appear nowhere in the sources (allowing for rounding). Such a
 * number standing where the matching passage has another figure, among the same words ("completed in 1925"
 * against "completed in 1889"), is a contradiction: the source states a different value for the same thing.
 */
export const checkNumbers = (context: ClaimContext): GroundingFinding[] => {
  const findings: GroundingFinding[] = [];
  const tokens = withRangeEnds(context.tokens);
  let rivals: Set<string> | undefined;
  for (let position = 0; position < tokens.length; position++) {
    const token = tokens[position] as Token;
    if (!hasDigit(token.lower)) continue;
    const value = numericValue(token.lower);
    if (value === undefined) {
      // Identifiers with digits ("A320", "2.3.1"): present verbatim or not at all.
      if (!context.index.stems.has(token.stem)) {
        findings.push({
          code: "NUMBER_NOT_IN_SOURCES",
          message: `"${token.text}" does not appear in the sources`,
          span: token.span,
          penalty: 0.35,
          contradicts: false,
        });
      }
      continue;
    }
    const decimals = decimalsOf(token.lower.replace(commas, ""));
    if (inSources(valuesOf(context), value, decimals)) continue;
    rivals ??= passageFigures(context);
    const swapped = rivals.size === 0 ? undefined : findSwap(tokens, position, context.aligned, rivals);
    if (swapped !== undefined) {
      findings.push({
        code: "NUMBER_MISMATCH",
        message: `${token.text} where the matching source passage says ${swapped.token.text}`,
        span: token.span,
        penalty: 0.3,
        contradicts: true,
      });
      continue;
    }
    findings.push({
      code: "NUMBER_NOT_IN_SOURCES",
      message: `the number ${token.text} appears nowhere in the sources`,
      span: token.span,
      penalty: 0.3,
      contradicts: false,
    });
  }
  return findings;
};
