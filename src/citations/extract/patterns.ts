/**
 * One way of writing a citation. Every built-in pattern is linear: no nested quantifiers, bounded
 * repetitions, constant-width look-arounds, so a scan costs O(length of text) whatever the input.
 */
export interface CitationPattern {
  readonly kind: string;
  /** A global regular expression; the value is the first capture group that matched. */
  readonly pattern: RegExp;
  /** Higher wins when two matches overlap (bracketed forms and URLs before bare hex). */
  readonly priority: number;
  /** Normalizes the captured value (lower-case hex, number without leading zeros). */
  readonly normalize?: (value: string) => string;
}

const lowerCase = (value: string) => value.toLowerCase();
const withoutLeadingZeros = (value: string) => String(Number.parseInt(value, 10));

export const builtInPatterns: readonly CitationPattern[] = [
  { kind: "transaction", pattern: /\[TX:\s?(0x[0-9a-fA-F]{64})\]/g, priority: 100, normalize: lowerCase },
  { kind: "address", pattern: /\[ADDR:\s?(0x[0-9a-fA-F]{40})\]/g, priority: 100 },
  { kind: "block", pattern: /\[BLOCK:\s?#?(\d{1,12})\]/g, priority: 100, normalize: withoutLeadingZeros },
  { kind: "timestamp", pattern: /\[TS:\s?([0-9][0-9T:.+\-Z]{3,39})\]/g, priority: 100 },
  {
    kind: "adr",
    pattern: /\[ADR[-\s]?(\d{1,4})\]|\bADR[-\s]?(\d{1,4})\b/g,
    priority: 90,
    normalize: withoutLeadingZeros,
  },
  { kind: "url", pattern: /\bhttps?:\/\/[^\s<>"'`[\]{}|\\^]{1,2048}/gi, priority: 80 },
  {
    kind: "issue",
    pattern: /(?<![\w&#/])#(\d{1,7})(?![\w-])|\bGH-(\d{1,7})\b/g,
    priority: 70,
    normalize: withoutLeadingZeros,
  },
  // Bare commit hashes: lower-case hex of 7 to 40 characters, not after `#` (CSS colours), `0x`, `/` or a
  // word character, with at least one letter and one digit (so words and plain numbers are left alone).
  { kind: "commit", pattern: /(?<![\w#/.:-])([0-9a-f]{7,40})(?![\w-])/g, priority: 10 },
];
