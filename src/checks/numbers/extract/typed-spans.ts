import { makeScratchArray } from "../../../model/scratch-array.js";
import type { Span } from "../../../model/span.js";
import { hasDigit } from "../../../text/ascii.js";
import { eachMatch } from "../../../text/each-match.js";
import type { NumberKind } from "./types.js";

const month =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?";

/**
 * What a text holds that a typed pattern needs, each read on first use (once however many patterns ask), so
 * that the patterns that cannot match are never run over the whole text. Each is a necessary condition of one
 * or more patterns, nothing more: a hint that holds only lets a pattern run, and the pattern decides.
 *
 * Each hint is read by a regular expression, a part every match of its patterns holds (the ISO date's
 * "2019-01" holds "9-0"; "1/2/2019" and "1.2.3" hold a digit, a separator, digits, a separator, a digit). One
 * expression test skips through a line far faster than a loop over its characters in script, which had cost
 * as much as all the patterns together on lines of prose. Their places in this list name them (below).
 */
const hintExpressions: readonly RegExp[] = [
  // A digit right after a letter, "#", "-" or "_": identifiers ("A12", "#12", "12ab3" holds "b3") and "v2".
  /[A-Za-z#_-]\d/,
  // A digit, "-", a digit: ISO dates.
  /\d-\d/,
  // A digit, ":", a digit: times.
  /\d:\d/,
  // Digits with a "." or "/" on each side of one run of them: "1/2/2019", "1.2.3".
  /\d[./]\d+[./]\d/,
  // The start of a month's name, as the month patterns write it (capitalised).
  /Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec/,
];
const digitNextToLetter = 0;
const digitDashDigit = 1;
const digitColonDigit = 2;
const twoSeparators = 3;
const namesMonth = 4;

/**
 * The hints of one text, each tested once, on first use, and remembered in two bit sets (which were tested,
 * which held): one object per text, where a closure per hint was six objects for every line with a digit.
 */
class Hints {
  readonly #text: string;
  #tested = 0;
  #held = 0;

  constructor(text: string) {
    this.#text = text;
  }

  /** Whether the text holds hint number `hint` (its place in `hintExpressions`). */
  holds(hint: number): boolean {
    const bit = 1 << hint;
    if ((this.#tested & bit) === 0) {
      this.#tested |= bit;
      if ((hintExpressions[hint] as RegExp).test(this.#text)) this.#held |= bit;
    }
    return (this.#held & bit) !== 0;
  }
}

const monthNamed = (hints: Hints): boolean => hints.holds(namesMonth);

/**
 * Patterns for numbers that are not quantities, tried in this order; the first to cover a span wins. Each is
 * run only when the text holds what it needs (`Hints`).
 */
const typedPatterns: readonly (readonly [NumberKind, RegExp, (hints: Hints, text: string) => boolean])[] = [
  ["identifier", /\b0x[0-9a-fA-F]+\b/g, (_, text) => text.includes("0x")],
  [
    "date",
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?\b/g,
    (hints) => hints.holds(digitDashDigit),
  ],
  ["date", /\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/g, (hints) => hints.holds(twoSeparators)],
  ["date", new RegExp(`\\b${month}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?\\b`, "g"), monthNamed],
  [
    "date",
    new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${month}(?:,?\\s+\\d{4})?\\b`, "g"),
    monthNamed,
  ],
  [
    "time",
    /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[aApP]\.?[mM]\.?)?(?![\d:])/g,
    (hints) => hints.holds(digitColonDigit),
  ],
  ["time", /\b\d{1,2}\s?[aApP]\.[mM]\./g, (_, text) => text.includes(".m.") || text.includes(".M.")],
  [
    "version",
    /\bv\d+(?:\.\d+)*\b|\b\d+\.\d+\.\d+(?:\.\d+)*\b/g,
    (hints) => hints.holds(digitNextToLetter) || hints.holds(twoSeparators),
  ],
  [
    "identifier",
    /#\d+\b|\b[A-Za-z]+[-_]?\d[A-Za-z0-9]*\b|\b\d+[A-Za-z]+\d[A-Za-z0-9]*\b/g,
    (hints) => hints.holds(digitNextToLetter),
  ],
];

export interface TypedSpan {
  readonly kind: NumberKind;
  readonly span: Span;
}

/** Spans of dates, times, versions and identifiers in a text, without overlaps. */
export const findTypedSpans = (text: string): TypedSpan[] => {
  const found: TypedSpan[] = [];
  // Characters already inside a found span. Checking a match costs its own length, and the matches of one
  // pattern never overlap each other, so each pattern costs at most the text's length: linear overall, where
  // comparing every match with every span found before was quadratic ("#1 " repeated 166,000 times).
  // Taken and cleared at the first span (most lines hold none), from a work array kept between calls (see
  // `makeScratchArray`).
  let covered: Uint8Array<ArrayBuffer> | undefined;
  const hints = new Hints(text);
  for (const [kind, pattern, possible] of typedPatterns) {
    if (!possible(hints, text)) continue;
    eachMatch(pattern, text, (match) => {
      const start = match.index;
      const end = start + match[0].length;
      if (!hasDigit(match[0]) || (covered !== undefined && anyCovered(covered, start, end))) return;
      if (covered === undefined) {
        covered = coveredCharacters.take(text.length);
        covered.fill(0, 0, text.length);
      }
      covered.fill(1, start, end);
      found.push({ kind, span: { start, end } });
    });
  }
  if (covered !== undefined) coveredCharacters.give(covered);
  return found.length > 1 ? found.sort(byStart) : found;
};

/** Whether any character from `start` to `end` is marked in `covered`. */
const anyCovered = (covered: Uint8Array, start: number, end: number): boolean => {
  for (let at = start; at < end; at++) if (covered[at] === 1) return true;
  return false;
};

const byStart = (a: TypedSpan, b: TypedSpan): number => a.span.start - b.span.start;

const coveredCharacters = makeScratchArray((length) => new Uint8Array(length));
