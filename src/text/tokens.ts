import type { Span } from "../model/span.js";

/** A word of a text with its offsets, its lower-cased form and its stem. */
export interface Token {
  readonly text: string;
  readonly span: Span;
  readonly lower: string;
  readonly stem: string;
}

// Letters or digits, joined by single inner apostrophes, hyphens, dots or commas ("don't", "U.S", "1,200.5").
// Each repetition must consume a separator and then at least one letter/digit, so matching is linear.
const wordPattern = /[\p{L}\p{N}]+(?:['’.,-][\p{L}\p{N}]+)*/gu;

const stemCache = new Map<string, string>();
const stemCacheLimit = 50_000;

/** `stem`, remembered: the same few thousand words recur in every text. Bounded; cleared when full. */
const cachedStem = (lower: string): string => {
  let stemmed = stemCache.get(lower);
  if (stemmed === undefined) {
    if (stemCache.size >= stemCacheLimit) stemCache.clear();
    stemmed = stem(lower);
    stemCache.set(lower, stemmed);
  }
  return stemmed;
};

/** The stems of a text's words, in order, without building tokens: what an index needs of a source. */
export const stemsOf = (text: string): string[] => {
  const stems: string[] = [];
  for (const match of text.matchAll(wordPattern)) {
    const lowered = match[0].toLowerCase();
    stems.push(cachedStem(lowered.includes("’") ? lowered.replace(/’/g, "'") : lowered));
  }
  return stems;
};

export const tokenize = (text: string, offset = 0): Token[] => {
  const tokens: Token[] = [];
  for (const match of text.matchAll(wordPattern)) {
    const start = offset + (match.index ?? 0);
    const raw = match[0];
    const lowered = raw.toLowerCase();
    const lower = lowered.includes("’") ? lowered.replace(/’/g, "'") : lowered;
    tokens.push({ text: raw, span: { start, end: start + raw.length }, lower, stem: cachedStem(lower) });
  }
  return tokens;
};

const stopwords = new Set(
  (
    "a an the and or but if then else of to in on at by for with from into onto over under about as is are was were " +
    "be been being am do does did doing have has had having it its it's this that these those there here their they " +
    "them he him his she her hers we us our you your yours i me my mine so such than too very can could would should " +
    "will shall may might must just also only even much many more most some any each every all both either neither " +
    "which who whom whose what when where why how while during after before up down out off again further once " +
    "own same other another s t don't isn't aren't wasn't weren't doesn't didn't not no nor never yes oh well " +
    "like really get got go going gone know think yeah lol um uh ok okay let's i'm i've i'd i'll you're you've " +
    "that's there's what's he's she's they're we're one thing things lot lots pretty quite said say says"
  ).split(" "),
);

export const isStopword = (lower: string): boolean => stopwords.has(lower);

/**
 * A light suffix stemmer (a small subset of Porter's rules): enough to match "increased" with "increases"
 * and "companies" with "company" without a dictionary. Numbers and short words are left alone.
 */
export const stem = (lower: string): string => {
  if (lower.length <= 3 || /\d/.test(lower)) return lower;
  let word = lower.endsWith("'s") ? lower.slice(0, -2) : lower;
  if (word.endsWith("ies") && word.length > 4) word = `${word.slice(0, -3)}y`;
  else if (word.endsWith("sses")) word = word.slice(0, -2);
  else if (word.endsWith("es") && /(?:x|ch|sh|ss|z)es$/.test(word)) word = word.slice(0, -2);
  else if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is"))
    word = word.slice(0, -1);
  if (word.endsWith("ing") && word.length > 5) word = undouble(word.slice(0, -3));
  else if (word.endsWith("ed") && word.length > 4) word = undouble(word.slice(0, -2));
  if (word.endsWith("ly") && word.length > 5) word = word.slice(0, -2);
  if (word.endsWith("e") && word.length > 4) word = word.slice(0, -1);
  return word;
};

const undouble = (word: string): string =>
  word.length > 3 && word.at(-1) === word.at(-2) && !/[lsz]/.test(word.at(-1) ?? "")
    ? word.slice(0, -1)
    : word;

/** Content tokens: not stopwords, not pure punctuation. */
export const contentTokens = (tokens: readonly Token[]): Token[] =>
  tokens.filter((t) => !isStopword(t.lower));
