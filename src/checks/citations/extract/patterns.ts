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
const blockNumber = (value: string) => (/^\d{1,12}$/.test(value) ? value.replace(/^0+(?=\d)/, "") : value);

export const builtInPatterns: readonly CitationPattern[] = [
  // The bracketed forms take any value up to the closing bracket, so a truncated or invented value
  // (`[TX:0xabc123]`) is a citation with a format problem rather than plain text nobody checks.
  { kind: "transaction", pattern: /\[TX:\s?([^\]\s]{1,100})\]/g, priority: 100, normalize: lowerCase },
  { kind: "address", pattern: /\[ADDR:\s?([^\]\s]{1,100})\]/g, priority: 100 },
  { kind: "block", pattern: /\[BLOCK:\s?#?([^\]\s]{1,30})\]/g, priority: 100, normalize: blockNumber },
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

/**
 * On-chain identifiers written in prose rather than in the bracketed form: a full transaction hash or
 * address is looked up like a citation, and a `0x` run that is cut short (`0xabc123…`) or has a length no
 * identifier has is a malformed one. Used by the citations layer, where prose identifiers are claims about
 * the chain; short runs without an ellipsis (selectors, small values such as `0x0`) stay text.
 */
export const proseIdentifierPatterns: readonly CitationPattern[] = [
  {
    kind: "onchain-prose",
    pattern: /(?<![\w[:])(0x[0-9a-fA-F]{4,100}(?:\u2026|\.{3})?)(?![0-9a-zA-Z])/g,
    priority: 60,
  },
];
