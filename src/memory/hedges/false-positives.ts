/**
 * Filters for words that look like hedges but are not, each a function of the matched word in its claim.
 * There are three: "May 2024" (a month), "couldn't"/"could not" (a statement of what did not happen, not
 * doubt), "should be 5" (a numeric description).
 */
import { trimEndWhere } from "../../text/trim.js";

export interface HedgeOccurrence {
  readonly text: string;
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

const monthNeighbours =
  /^(?:in|of|since|until|till|by|during|from|through|early|late|mid|last|next|this|before|after|on)$/i;

const letterOrDigit = /[\p{L}\p{N}]/u;

/**
 * The word before `start` (letters and digits), skipping what separates them. Read backwards from `start`, so
 * the cost is the distance walked, not a regex retried from every position of the text before it.
 */
const previousWord = (text: string, start: number): string | undefined => {
  const before = trimEndWhere(text.slice(0, start), (character) => !letterOrDigit.test(character));
  const word = before.slice(trimEndWhere(before, (character) => letterOrDigit.test(character)).length);
  return word.length > 0 ? word : undefined;
};

const isSpace = (character: string) => /\s/.test(character);

/** Whether `start` begins a sentence: only spaces, an opening quote or bracket, back to `.!?:;` or the start. */
const atSentenceStart = (text: string, start: number): boolean => {
  let before = trimEndWhere(text.slice(0, start), isSpace);
  if (before.length === 0) return true;
  if (`"'(`.includes(before.at(-1) as string)) {
    before = trimEndWhere(before.slice(0, -1), isSpace);
    if (before.length === 0) return false;
  }
  return ".!?:;".includes(before.at(-1) as string);
};

/** "May 2024", "5 May", "in May", and a capitalised "May" inside a sentence are the month. */
const isMonthMay = ({ text, word, start, end }: HedgeOccurrence): boolean => {
  if (word !== "May") return false;
  if (/^\s+\d/.test(text.slice(end))) return true;
  const before = previousWord(text, start);
  if (before !== undefined && (/^\d+(?:st|nd|rd|th)?$/.test(before) || monthNeighbours.test(before)))
    return true;
  return !atSentenceStart(text, start);
};

/** "could not" states what did not happen; "couldn't" never matches the word pattern at all. */
const isNegatedCould = ({ text, word, end }: HedgeOccurrence): boolean =>
  word.toLowerCase() === "could" && /^\s+not\b/i.test(text.slice(end));

/** "should be 5", "should equal 42", "should return 200": an expected value, not a hedge. */
const isNumericShould = ({ text, word, end }: HedgeOccurrence): boolean =>
  word.toLowerCase() === "should" &&
  /^\s+(?:be|equal|return|read|contain|give|yield|output|print)\s+(?:exactly\s+)?[-+]?[$€£]?\d/i.test(
    text.slice(end),
  );

export const falsePositiveFilters: readonly ((occurrence: HedgeOccurrence) => boolean)[] = [
  isMonthMay,
  isNegatedCould,
  isNumericShould,
];

export const isFalsePositive = (occurrence: HedgeOccurrence): boolean =>
  falsePositiveFilters.some((filter) => filter(occurrence));
