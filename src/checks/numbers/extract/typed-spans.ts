import type { Span } from "../../../model/span.js";
import type { NumberKind } from "./types.js";

const month =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?";

/**
 * What a text holds that a typed pattern needs, read in one pass so that the patterns that cannot match are
 * never run over the whole text. Each flag is a necessary condition of one or more patterns, nothing more.
 */
interface Hints {
  /** A digit right after a letter, "#", "-" or "_", or right before a letter: identifiers, "v2". */
  readonly digitNextToLetter: boolean;
  /** A digit, "-", a digit: ISO dates. */
  readonly digitDashDigit: boolean;
  /** A digit, ":", a digit: times. */
  readonly digitColonDigit: boolean;
  /** A run of digits, "." and "/" with two separators between digits: "1/2/2019", "1.2.3". */
  readonly twoSeparators: boolean;
  /** Whether the text holds the start of a month's name: read on first use, once however many patterns ask. */
  readonly namesMonth: () => boolean;
}

const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

const hintsOf = (text: string): Hints => {
  let digitNextToLetter = false;
  let digitDashDigit = false;
  let digitColonDigit = false;
  let twoSeparators = false;
  // Separators between digits in the current run of digits, "." and "/".
  let separators = 0;
  let previous = -1;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (isDigit(code)) {
      if (isLetter(previous) || previous === 35 || previous === 45 || previous === 95)
        digitNextToLetter = true;
      if (previous === 45 && isDigit(text.charCodeAt(at - 2))) digitDashDigit = true;
      if (previous === 58 && isDigit(text.charCodeAt(at - 2))) digitColonDigit = true;
      if ((previous === 46 || previous === 47) && isDigit(text.charCodeAt(at - 2))) {
        separators += 1;
        if (separators >= 2) twoSeparators = true;
      }
    } else if (isLetter(code)) {
      if (isDigit(previous)) digitNextToLetter = true;
      separators = 0;
    } else if (code !== 46 && code !== 47) separators = 0;
    previous = code;
  }
  let month: boolean | undefined;
  const namesMonth = () => {
    month ??= monthStarts.some((start) => text.includes(start));
    return month;
  };
  return { digitNextToLetter, digitDashDigit, digitColonDigit, twoSeparators, namesMonth };
};

const monthStarts = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const namesMonth = (hints: Hints): boolean => hints.namesMonth();

/**
 * Patterns for numbers that are not quantities, tried in this order; the first to cover a span wins. Each is
 * run only when the text holds what it needs (`Hints`).
 */
const typedPatterns: readonly (readonly [NumberKind, RegExp, (hints: Hints, text: string) => boolean])[] = [
  ["identifier", /\b0x[0-9a-fA-F]+\b/g, (_, text) => text.includes("0x")],
  [
    "date",
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?\b/g,
    (hints) => hints.digitDashDigit,
  ],
  ["date", /\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/g, (hints) => hints.twoSeparators],
  ["date", new RegExp(`\\b${month}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?\\b`, "g"), namesMonth],
  [
    "date",
    new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${month}(?:,?\\s+\\d{4})?\\b`, "g"),
    namesMonth,
  ],
  ["time", /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[aApP]\.?[mM]\.?)?(?![\d:])/g, (hints) => hints.digitColonDigit],
  ["time", /\b\d{1,2}\s?[aApP]\.[mM]\./g, (_, text) => text.includes(".m.") || text.includes(".M.")],
  [
    "version",
    /\bv\d+(?:\.\d+)*\b|\b\d+\.\d+\.\d+(?:\.\d+)*\b/g,
    (hints) => hints.digitNextToLetter || hints.twoSeparators,
  ],
  [
    "identifier",
    /#\d+\b|\b[A-Za-z]+[-_]?\d[A-Za-z0-9]*\b|\b\d+[A-Za-z]+\d[A-Za-z0-9]*\b/g,
    (hints) => hints.digitNextToLetter,
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
  const covered = new Uint8Array(text.length);
  const overlaps = (start: number, end: number) => {
    for (let at = start; at < end; at++) if (covered[at] === 1) return true;
    return false;
  };
  const hints = hintsOf(text);
  for (const [kind, pattern, possible] of typedPatterns) {
    if (!possible(hints, text)) continue;
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (!/\d/.test(match[0]) || overlaps(start, end)) continue;
      covered.fill(1, start, end);
      found.push({ kind, span: { start, end } });
    }
  }
  return found.sort((a, b) => a.span.start - b.span.start);
};
