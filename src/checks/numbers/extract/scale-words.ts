import { isAsciiDigit } from "../../../text/ascii.js";
import { isWhiteSpace } from "../../../text/char-classes.js";
import { eachMatch } from "../../../text/each-match.js";

/** Scale words and suffixes, as written after a number. Case matters for the one-letter suffixes. */
const scaleTable: readonly (readonly [RegExp, number])[] = [
  [/^(?:thousand|thousands)\b/i, 1e3],
  [/^(?:million|millions|mln|mn)\b/i, 1e6],
  [/^(?:billion|billions|bln|bn)\b/i, 1e9],
  [/^(?:trillion|trillions|tn)\b/i, 1e12],
  [/^MM\b/, 1e6],
  [/^[Kk]\b/, 1e3],
  [/^M\b/, 1e6],
  [/^B\b/, 1e9],
  [/^T\b/, 1e12],
];

const scaleInitials = new Set(["t", "T", "m", "M", "b", "B", "k", "K"]);
/** " " or a no-break space: what may stand between a number and its scale or unit. */
export const isSpace = (code: number): boolean => code === 32 || code === 0xa0;

/** The scale word at the start of `rest` (after an optional space): its multiplier and length. */
export const readScale = (rest: string): { multiplier: number; length: number } | undefined => {
  const space = isSpace(rest.charCodeAt(0)) ? 1 : 0;
  // Every scale word starts with one of these letters: most numbers are followed by none of them.
  if (!scaleInitials.has(rest.charAt(space))) return undefined;
  const after = rest.slice(space);
  for (const [pattern, multiplier] of scaleTable) {
    const match = pattern.exec(after);
    if (match) return { multiplier, length: space + match[0].length };
  }
  return undefined;
};

const currencyMark = String.raw`(?:US\$|S\$|HK\$|A\$|C\$|NT\$|[$€£¥]|\b(?:USD|RMB|EUR|GBP|CHF|CNY|JPY|NT))`;
const declaration = (words: string, suffixes: string) =>
  new RegExp(
    String.raw`\bin\s+(?:[^\s\d]+\s+)?(?:${words})\b|\(\s*(?:in\s+)?(?:${words})\b|\b(?:${words})\s*\)|` +
      String.raw`${currencyMark}\s?['’‘]?\s?(?:${words}|${suffixes})\b`,
    "i",
  );

/**
 * A scale declared with its word ("(in millions)", "in thousands", "$ millions") or a currency and a short
 * suffix ("€m", "$'000"). `pattern` reads the whole text at once; the other patterns test one place each,
 * where the scale word or a currency is written (see `placesOf`), which finds the same declarations without
 * reading the whole text once per pattern.
 */
interface ScaleDeclaration {
  readonly pattern: RegExp;
  /** The scale word, lower-cased: every declaration but a currency with a short suffix holds it. */
  readonly word: string;
  /** At the scale word: the declaration around it. */
  readonly aroundWord: RegExp;
  /** At a currency sign, and at a currency code: the sign or code followed by a short suffix. */
  readonly afterSign: RegExp;
  readonly afterCode: RegExp;
  /** The lower-cased first character of every short suffix. */
  readonly suffixInitial: string;
}

const scaleDeclaration = (word: string, words: string, suffixes: string, suffixInitial: string) => ({
  pattern: declaration(words, suffixes),
  word,
  aroundWord: new RegExp(
    String.raw`(?<=\bin\s+(?:[^\s\d]+\s+)?|\(\s*(?:in\s+)?|${currencyMark}\s?['’‘]?\s?)(?:${words})\b|\b(?:${words})\s*\)`,
    "iy",
  ),
  afterSign: new RegExp(String.raw`[$€£¥]\s?['’‘]?\s?(?:${suffixes})\b`, "iy"),
  afterCode: new RegExp(String.raw`\b(?:USD|RMB|EUR|GBP|CHF|CNY|JPY|NT)\s?['’‘]?\s?(?:${suffixes})\b`, "iy"),
  suffixInitial,
});

const thousands = scaleDeclaration("thousand", "thousands?", "000s?", "0");
const millions = scaleDeclaration("million", "millions?", "m|mn|mm", "m");
const billions = scaleDeclaration("billion", "billions?", "bn|b", "b");
/** "$'000", "(1,000)", "000s": thousands without the word. */
const thousandsWritten = /['’‘]000s?\b|\(\s*1,000\s*\)|\b000s\b/;

/** Where a declaration may be written: each scale word, currency sign ("$", "€", "£", "¥") and currency code. */
interface Places {
  readonly thousand: number[];
  readonly million: number[];
  readonly billion: number[];
  readonly signs: number[];
  readonly codes: number[];
}

/** Every place `needle` starts in `text`, in order. */
const pushAll = (into: number[], text: string, needle: string): void => {
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) into.push(at);
};

/**
 * A currency code where a word starts. `afterCode` matches a code only after `\b`, so a place inside a word
 * ("nt" in "want", "eur" in "neuron") never starts a declaration; common words hold those letters thousands of
 * times per document, and finding each place with `indexOf` only for the pattern to refuse it cost most of
 * `placesOf`. Read on the text as written, with the flag that folds ASCII case, so `\b` sees what `afterCode`
 * sees there; "nt" stands for "NT$" and "NT" (New Taiwan dollars) and starts no other code.
 */
const codeAtWordStart = /\b(?:usd|rmb|eur|gbp|chf|cny|jpy|nt)/gi;

/**
 * The places a declaration may start at, each list in text order: scale words and signs in the lower-cased
 * text (found with `indexOf`, which skips through the text far faster than a loop that looks at every
 * character), currency codes where a word of `text` starts. `lower` has `text`'s length, so the places of one
 * are the places of the other.
 */
const placesOf = (text: string, lower: string): Places => {
  const places: Places = { thousand: [], million: [], billion: [], signs: [], codes: [] };
  pushAll(places.thousand, lower, "thousand");
  pushAll(places.million, lower, "million");
  pushAll(places.billion, lower, "billion");
  for (const sign of ["$", "€", "£", "¥"]) pushAll(places.signs, lower, sign);
  places.signs.sort((a, b) => a - b);
  eachMatch(codeAtWordStart, text, (match) => places.codes.push(match.index));
  return places;
};

/** Whether `at` is inside `text` and a white-space character there (outside it, `charCodeAt` gives NaN). */
const isWhitespace = (text: string, at: number) => isWhiteSpace(text.charCodeAt(at));
const isDigitAt = (text: string, at: number) => isAsciiDigit(text.charCodeAt(at));

/**
 * Whether a declaration may be written around the scale word at `at`: "in", "(" or a currency before it, or
 * ")" after it. Before it, past any spaces, every one of those ends in something other than a digit.
 */
const mayDeclareAround = (text: string, at: number, length: number): boolean => {
  let before = at - 1;
  while (isWhitespace(text, before)) before -= 1;
  if (!isDigitAt(text, before)) return true;
  let after = at + length;
  if (text.charAt(after) === "s" || text.charAt(after) === "S") after += 1;
  while (isWhitespace(text, after)) after += 1;
  return text.charAt(after) === ")";
};

/** Whether a short suffix may start within `[from, to]` of the lower-cased text. */
const suffixNear = (lower: string, from: number, to: number, initial: string): boolean => {
  for (let at = from; at <= to && at < lower.length; at++) if (lower.charAt(at) === initial) return true;
  return false;
};

const testAt = (pattern: RegExp, text: string, at: number): boolean => {
  pattern.lastIndex = at;
  return pattern.test(text);
};

/**
 * Whether `text` declares the scale, tested at each place it may be written. A declaration's letters are
 * ASCII (the pattern ignores case for them only), so each one is found at its place in the lower-cased text as
 * long as lower-casing kept every offset (the same length); otherwise the whole-text pattern decides.
 */
const declares = (
  text: string,
  lower: string,
  places: Places,
  words: readonly number[],
  scale: ScaleDeclaration,
): boolean =>
  words.some((at) => mayDeclareAround(text, at, scale.word.length) && testAt(scale.aroundWord, text, at)) ||
  // A sign, then up to three spaces or quotes, then the suffix.
  places.signs.some(
    (at) => suffixNear(lower, at + 1, at + 4, scale.suffixInitial) && testAt(scale.afterSign, text, at),
  ) ||
  // A code of two or three letters, then up to three spaces or quotes, then the suffix.
  places.codes.some(
    (at) => suffixNear(lower, at + 2, at + 6, scale.suffixInitial) && testAt(scale.afterCode, text, at),
  );

/**
 * The scales a document declares for its bare figures: "(in millions)", "in thousands", "$'000", "€m".
 * A table's cells are read in these scales.
 */
export const declaredScales = (text: string): number[] => {
  const lower = text.toLowerCase();
  const scales: number[] = [];
  if (lower.length !== text.length) {
    if (thousands.pattern.test(text) || thousandsWritten.test(text)) scales.push(1e3);
    if (millions.pattern.test(text)) scales.push(1e6);
    if (billions.pattern.test(text)) scales.push(1e9);
    return scales;
  }
  const places = placesOf(text, lower);
  const thousandsDeclared =
    declares(text, lower, places, places.thousand, thousands) ||
    (text.includes("000") && thousandsWritten.test(text));
  if (thousandsDeclared) scales.push(1e3);
  if (declares(text, lower, places, places.million, millions)) scales.push(1e6);
  if (declares(text, lower, places, places.billion, billions)) scales.push(1e9);
  return scales;
};
