import { isWhiteSpace } from "../../../text/char-classes.js";
import { isSpace, readScale } from "./scale-words.js";

const currencySymbols: Record<string, string> = {
  $: "USD",
  US$: "USD",
  HK$: "HKD",
  A$: "AUD",
  C$: "CAD",
  "€": "EUR",
  "£": "GBP",
  "¥": "JPY",
  "₹": "INR",
};

const currencyBefore =
  /(US\$|HK\$|A\$|C\$|[$€£¥₹]|\b(?:USD|EUR|GBP|JPY|CHF|CNY|RMB|CAD|AUD|INR|HKD)\b)[ \u00a0]*$/;
const signBefore = /(?:^|(?<=[\s(|=:;,[{]))([-−–+])$/;
const approximationBefore =
  /(?:\b(?:about|around|approximately|approx\.|roughly|nearly|almost|circa|some|close to)|~|≈)\s*$/i;

/**
 * The patterns above end at the end of what they read, so a regular expression would try them from every
 * offset. What must end the text for each to match is checked first: most numbers have none of it before them.
 */
const currencyEnds = new Set(["$", "€", "£", "¥", "₹", "D", "R", "P", "Y", "F", "B"]);
const signs = new Set(["-", "−", "–", "+"]);
const approximationEnds = new Set([
  "t",
  "T",
  "d",
  "D",
  "y",
  "Y",
  ".",
  "a",
  "A",
  "e",
  "E",
  "o",
  "O",
  "~",
  "≈",
]);

const currencyAtEnd = (text: string): RegExpExecArray | null => {
  let end = text.length;
  while (end > 0 && isSpace(text.charCodeAt(end - 1))) end -= 1;
  return currencyEnds.has(text.charAt(end - 1)) ? currencyBefore.exec(text) : null;
};

const approximationAtEnd = (text: string): boolean => {
  let end = text.length;
  while (end > 0 && isWhiteSpace(text.charCodeAt(end - 1))) end -= 1;
  return approximationEnds.has(text.charAt(end - 1)) && approximationBefore.test(text);
};

export interface Prefix {
  readonly length: number;
  readonly currency?: string;
  readonly sign: 1 | -1;
  readonly signed: boolean;
  readonly approximate: boolean;
}

/** Reads what is written just before a number: an approximation word, a sign, a currency. */
export const readPrefix = (before: string): Prefix => {
  let rest = before;
  let currency: string | undefined;
  let sign: 1 | -1 = 1;
  let signed = false;
  const currencyMatch = currencyAtEnd(rest);
  if (currencyMatch) {
    currency = currencySymbols[currencyMatch[1] ?? ""] ?? currencyMatch[1];
    rest = rest.slice(0, currencyMatch.index);
  }
  const signMatch = signs.has(rest.charAt(rest.length - 1)) ? signBefore.exec(rest) : null;
  if (signMatch) {
    signed = true;
    sign = signMatch[1] === "+" ? 1 : -1;
    rest = rest.slice(0, signMatch.index);
  }
  if (!currency) {
    // "-$5" was read above; "$-5" is read here.
    const late = currencyAtEnd(rest);
    if (late && signed) {
      currency = currencySymbols[late[1] ?? ""] ?? late[1];
      rest = rest.slice(0, late.index);
    }
  }
  const approximate = approximationAtEnd(rest);
  const length = before.length - rest.length;
  // Written out for each case, not spread from a conditional object: read for every figure of every source.
  return currency ? { length, sign, signed, approximate, currency } : { length, sign, signed, approximate };
};

export interface Suffix {
  readonly length: number;
  readonly multiplier: number;
  readonly scaleWritten: boolean;
  readonly unit?: "%" | "pp" | "bps";
  readonly currency?: string;
}

const unitAfter: readonly (readonly [RegExp, "%" | "pp" | "bps"])[] = [
  [/^[ \u00a0]?(?:percentage points?|pct\.? points?|pp|ppts?)\b/i, "pp"],
  [/^[ \u00a0]?(?:%|percent\b|per cent\b|pct\b)/i, "%"],
  [/^[ \u00a0]?(?:bps|basis points?)\b/i, "bps"],
];
const unitInitials = new Set(["%", "p", "P", "b", "B"]);
const currencyAfter = /^[ \u00a0](USD|EUR|GBP|JPY|CHF|CNY|RMB|CAD|AUD|INR|HKD|dollars|euros|pounds)\b/i;
const currencyWords: Record<string, string> = { dollars: "USD", euros: "EUR", pounds: "GBP" };

/** Reads what is written just after a number: a scale word, a percent or point unit, a currency. */
export const readSuffix = (after: string): Suffix => {
  let length = 0;
  let multiplier = 1;
  let scaleWritten = false;
  const scale = readScale(after);
  if (scale) {
    multiplier = scale.multiplier;
    scaleWritten = true;
    length = scale.length;
  }
  let unit: "%" | "pp" | "bps" | undefined;
  // Every unit starts with "%", "p" or "b" (after an optional space).
  const unitStart = after.charAt(isSpace(after.charCodeAt(length)) ? length + 1 : length);
  for (const [pattern, name] of unitInitials.has(unitStart) ? unitAfter : []) {
    const match = pattern.exec(after.slice(length));
    if (match) {
      unit = name;
      length += match[0].length;
      break;
    }
  }
  let currency: string | undefined;
  const currencyMatch = unit ? null : currencyAfter.exec(after.slice(length));
  if (currencyMatch) {
    const word = (currencyMatch[1] ?? "").toLowerCase();
    currency = currencyWords[word] ?? word.toUpperCase();
    length += currencyMatch[0].length;
  }
  // Written out for each case (a unit and a currency are never both read), not spread from conditional objects.
  if (unit) return { length, multiplier, scaleWritten, unit };
  return currency ? { length, multiplier, scaleWritten, currency } : { length, multiplier, scaleWritten };
};
