import type { Span } from "../../model/span.js";
import type { NumberKind } from "./types.js";

const month =
  "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?";

/** Patterns for numbers that are not quantities, tried in this order; the first to cover a span wins. */
const typedPatterns: readonly (readonly [NumberKind, RegExp])[] = [
  ["identifier", /\b0x[0-9a-fA-F]+\b/g],
  ["date", /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?\b/g],
  ["date", /\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/g],
  ["date", new RegExp(`\\b${month}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?\\b`, "g")],
  ["date", new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${month}(?:,?\\s+\\d{4})?\\b`, "g")],
  ["time", /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[aApP]\.?[mM]\.?)?(?![\d:])/g],
  ["time", /\b\d{1,2}\s?[aApP]\.[mM]\./g],
  ["version", /\bv\d+(?:\.\d+)*\b|\b\d+\.\d+\.\d+(?:\.\d+)*\b/g],
  ["identifier", /#\d+\b|\b[A-Za-z]+[-_]?\d+[A-Za-z0-9]*\b|\b\d+[A-Za-z]+\d+[A-Za-z0-9]*\b/g],
];

export interface TypedSpan {
  readonly kind: NumberKind;
  readonly span: Span;
}

/** Spans of dates, times, versions and identifiers in a text, without overlaps. */
export const findTypedSpans = (text: string): TypedSpan[] => {
  const found: TypedSpan[] = [];
  const overlaps = (start: number, end: number) =>
    found.some((t) => start < t.span.end && t.span.start < end);
  for (const [kind, pattern] of typedPatterns) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (!/\d/.test(match[0]) || overlaps(start, end)) continue;
      found.push({ kind, span: { start, end } });
    }
  }
  return found.sort((a, b) => a.span.start - b.span.start);
};
