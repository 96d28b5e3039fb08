import { fnvOffset, fnvPrime } from "../model/fnv1a.js";
import type { Span } from "../model/span.js";
import { hasDigit } from "./ascii.js";

/** A word of a text with its offsets, its lower-cased form and its stem. */
export interface Token {
  readonly text: string;
  readonly span: Span;
  readonly lower: string;
  readonly stem: string;
}

// A word: letters or digits, joined by single inner apostrophes, hyphens, dots or commas ("don't", "U.S",
// "1,200.5"); the same as /[\p{L}\p{N}]+(?:['’.,-][\p{L}\p{N}]+)*/gu, read by a hand-written scanner
// (one pass, linear, no match objects: the grounding index tokenizes every source on every request), except
// that combining marks and invisible characters inside a word continue it (see `wordContinuation`).
export const wordPattern = /[\p{L}\p{N}]+(?:['’.,-][\p{L}\p{N}]+)*/gu;

const letterOrDigit = /^[\p{L}\p{N}]$/u;

/**
 * `isAsciiLetterOrDigit` (text/ascii.ts), written here again on purpose: the stemmer calls it for every
 * character of every source, and calling the imported one made `stemsOf` 4-6% slower in four paired runs over
 * the payloads' sources (likely because an imported binding is read through the module's environment on each
 * call); this copy measured even with the code before it.
 */
const isWordCode = (code: number): boolean =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57);

/**
 * Length in UTF-16 units of the letter or digit at `at` (2 for an astral one), or 0 when there is none. The
 * text is read as if it ended at `limit`: a surrogate pair that `limit` cuts is a lone surrogate.
 */
const wordCharLength = (text: string, at: number, limit = text.length): number => {
  if (at >= limit) return 0;
  const code = text.charCodeAt(at);
  if (code < 128) return isWordCode(code) ? 1 : 0;
  if (code >= 0xd800 && code <= 0xdbff) {
    const point = at + 1 < limit ? (text.codePointAt(at) ?? code) : code;
    if (point > 0xffff) return letterOrDigit.test(String.fromCodePoint(point)) ? 2 : 0;
  }
  return Number.isNaN(code) ? 0 : letterOrDigit.test(text.charAt(at)) ? 1 : 0;
};

const isJoiner = (code: number): boolean =>
  code === 39 || code === 0x2019 || code === 46 || code === 44 || code === 45;

/**
 * Characters that render as nothing inside a word: zero-width space, non-joiner and joiner, word joiner, BOM,
 * soft hyphen. A word goes on through them ("no\u200Dt" is one word, read as "not"), so a negation or a hedge
 * cannot be split out of sight.
 */
const isInvisible = (code: number): boolean =>
  (code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff || code === 0xad;

const combiningMark = /^\p{M}$/u;

/** A combining mark (the accent of a decomposed "é"): it belongs to the word before it. */
const isMark = (text: string, at: number): boolean => {
  const code = text.charCodeAt(at);
  return code >= 0x300 && combiningMark.test(text.charAt(at));
};

/**
 * Length of what continues a word at `at`: a letter or digit, a combining mark, or an invisible character
 * (the text read as if it ended at `limit`).
 */
const wordContinuation = (text: string, at: number, limit: number): number => {
  const length = wordCharLength(text, at, limit);
  if (length > 0 || at >= limit) return length;
  const code = text.charCodeAt(at);
  return code >= 0xad && (isInvisible(code) || isMark(text, at)) ? 1 : 0;
};

const invisibleCharacters = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

/** A word as rules read it: invisible characters dropped, composed to NFC. Most words need neither. */
const readableWord = (raw: string): string => {
  let needsWork = false;
  for (let at = 0; at < raw.length && !needsWork; at++) needsWork = raw.charCodeAt(at) >= 0xad;
  return needsWork ? raw.replace(invisibleCharacters, "").normalize("NFC") : raw;
};

/** Where the word starting at `start` ends, the text read as if it ended at `limit`. */
const wordEnd = (text: string, start: number, limit = text.length): number => {
  let at = start;
  for (;;) {
    let length = wordContinuation(text, at, limit);
    while (length > 0) {
      at += length;
      length = wordContinuation(text, at, limit);
    }
    if (at + 1 < limit && isJoiner(text.charCodeAt(at))) {
      const next = wordCharLength(text, at + 1, limit);
      if (next > 0) {
        at += 1 + next;
        continue;
      }
    }
    return at;
  }
};

interface WordForms {
  readonly lower: string;
  readonly stem: string;
}

const formsCache = new Map<string, WordForms>();
const formsCacheLimit = 50_000;
/**
 * Longest word remembered, by `formsOf` and by the ASCII table (whose slots pack a length in 8 bits). Bounding
 * the entries alone bounded nothing in bytes: a text of long distinct "words" (a run of letters with no space,
 * 100 KB each) kept every one as a key until 50,000 had passed.
 */
const maxRememberedWord = 255;

const curlyApostrophes = /’/g;

const readForms = (raw: string): WordForms => {
  const lowered = raw.toLowerCase();
  const lower = lowered.includes("’") ? lowered.replace(curlyApostrophes, "'") : lowered;
  return { lower, stem: stem(lower) };
};

/** Lower-cased form and stem of a word as written, remembered: the same few thousand words recur in every
 * text, so most words cost one map look-up. Bounded: words of at most `maxRememberedWord` characters, cleared
 * when full. */
const formsOf = (raw: string): WordForms => {
  if (raw.length > maxRememberedWord) return readForms(raw);
  let forms = formsCache.get(raw);
  if (forms === undefined) {
    if (formsCache.size >= formsCacheLimit) formsCache.clear();
    forms = readForms(raw);
    formsCache.set(raw, forms);
  }
  return forms;
};

/**
 * Forms of ASCII words, looked up by the word's place in the text: an open-addressing table keyed by a hash of
 * the word's characters. A slot's key is two numbers in typed arrays (the word's hash; where its characters sit
 * in one byte array, and its length), so a look-up compares numbers and bytes in small contiguous arrays and
 * touches no string but the text: the table is read for every word of every source, and when each slot held
 * the word as a string, reading that string (somewhere in the heap) was most of a look-up's cost. The forms
 * and the stem sit in arrays of their own, read once the slot is found. A hit makes no new string: slicing
 * each word out of a source and hashing the slice in a `Map` was the largest part of indexing new sources.
 * The stem has an array of its own although the forms hold it: `stemsOf` wants only the stem, and reading it
 * through the forms object is one more read somewhere in the heap. Words with other characters take `formsOf`,
 * which also reads accents and invisible characters; ASCII words of more than `maxRememberedWord` characters
 * are read each time. Bounded: cleared when half full or when the characters fill their array.
 */
const asciiSlotCount = 1 << 16;
const asciiSlotMask = asciiSlotCount - 1;
/** Each slot's word hash (FNV-1a). */
const slotHashes = new Int32Array(asciiSlotCount);
/**
 * Each slot's word: `offset << 8 | length` into `slotCharacters`; 0 for an empty slot (no word is empty). The
 * offset stays below 2^20, so the packed number stays a positive 32-bit one.
 */
const slotPlaces = new Int32Array(asciiSlotCount);
/** The kept words' characters, one byte each (they are ASCII), one after another: 1 MB. */
const slotCharacters = new Uint8Array(1 << 20);
let slotCharactersUsed = 0;
const slotForms: (WordForms | undefined)[] = new Array(asciiSlotCount).fill(undefined);
const slotStems: (string | undefined)[] = new Array(asciiSlotCount).fill(undefined);
let asciiWordCount = 0;

/** Whether the `length` characters kept at `offset` are the text's characters from `start`. */
const sameCharacters = (offset: number, text: string, start: number, length: number): boolean => {
  for (let at = 0; at < length; at++)
    if (slotCharacters[offset + at] !== text.charCodeAt(start + at)) return false;
  return true;
};

/** The forms of the word `start` to `end` of `text`, as `formsOf(readableWord(word))` gives them. */
const formsAt = (text: string, start: number, end: number): WordForms => {
  // A word too long for the table takes the general path unhashed, whatever its characters.
  if (end - start > maxRememberedWord) return formsOf(readableWord(text.slice(start, end)));
  // FNV-1a over the UTF-16 units; any unit outside ASCII sends the word to the general path.
  let hash = fnvOffset;
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (code >= 128) return formsOf(readableWord(text.slice(start, end)));
    hash = Math.imul(hash ^ code, fnvPrime);
  }
  return slotForms[asciiSlotOf(text, start, end, hash)] as WordForms;
};

/** The stem of the ASCII word `start` to `end` of `text`, whose FNV-1a hash is `hash`. */
const asciiStem = (text: string, start: number, end: number, hash: number): string =>
  end - start > maxRememberedWord
    ? readForms(text.slice(start, end)).stem
    : (slotStems[asciiSlotOf(text, start, end, hash)] as string);

/** The forms of the ASCII word `start` to `end` of `text`, whose FNV-1a hash is `hash`. */
const asciiForms = (text: string, start: number, end: number, hash: number): WordForms =>
  end - start > maxRememberedWord
    ? readForms(text.slice(start, end))
    : (slotForms[asciiSlotOf(text, start, end, hash)] as WordForms);

/**
 * The slot of the ASCII word `start` to `end` of `text` (at most `maxRememberedWord` characters), whose FNV-1a hash
 * is `hash`, added when it is not there yet.
 */
const asciiSlotOf = (text: string, start: number, end: number, hash: number): number => {
  const length = end - start;
  // Hashes are compared as the arrays hold them: 32-bit signed.
  const key = hash | 0;
  for (let slot = hash & asciiSlotMask; ; slot = (slot + 1) & asciiSlotMask) {
    const place = slotPlaces[slot] as number;
    if (place === 0) break;
    if (
      slotHashes[slot] === key &&
      (place & 0xff) === length &&
      sameCharacters(place >>> 8, text, start, length)
    )
      return slot;
  }
  if (asciiWordCount >= asciiSlotCount >>> 1 || slotCharactersUsed + length > slotCharacters.length) {
    slotPlaces.fill(0);
    slotForms.fill(undefined);
    slotStems.fill(undefined);
    slotCharactersUsed = 0;
    asciiWordCount = 0;
  }
  // An ASCII word needs no reading: it holds no accent and no invisible character.
  const forms = formsOf(text.slice(start, end));
  let slot = hash & asciiSlotMask;
  while (slotPlaces[slot] !== 0) slot = (slot + 1) & asciiSlotMask;
  const offset = slotCharactersUsed;
  for (let at = 0; at < length; at++) slotCharacters[offset + at] = text.charCodeAt(start + at);
  slotCharactersUsed += length;
  slotHashes[slot] = key;
  slotPlaces[slot] = (offset << 8) | length;
  slotForms[slot] = forms;
  slotStems[slot] = forms.stem;
  asciiWordCount += 1;
  return slot;
};

/**
 * Where the word starting at `start` ends (the text read as if it ended at `length`), read in one pass: a word
 * of ASCII letters and digits (joined by "'", ".", ",", "-") is hashed as it is scanned, and its FNV-1a hash
 * left in `scannedHash`; a word that meets any other character (its first one included) is read again from its
 * start by the general scanner (`wordEnd`), which knows accents, marks and invisible characters, and
 * `scannedGeneral` says so. Module state rather than a returned pair: `tokenize` calls this for every word of
 * every claim and passage it reads, and a pair would be an object per word. `stemsOf` keeps its own copy of
 * this loop: calling this one made it 6-14% slower over the dev sets' sources (module state written per word),
 * and it reads every word of every source; the tests hold the two to the same words.
 */
let scannedGeneral = false;
let scannedHash = 0;
const scanWord = (text: string, start: number, length: number): number => {
  let at = start;
  let hash = fnvOffset;
  for (;;) {
    // Past the end of the range nothing continues the word (-1 is no character).
    const unit = at < length ? text.charCodeAt(at) : -1;
    if (isWordCode(unit)) {
      hash = Math.imul(hash ^ unit, fnvPrime);
      at += 1;
      continue;
    }
    if (at < length && unit >= 128) break;
    // A joiner continues the word when a letter or digit follows it.
    if (at + 1 < length && isJoiner(unit)) {
      const next = text.charCodeAt(at + 1);
      if (isWordCode(next)) {
        hash = Math.imul(hash ^ unit, fnvPrime);
        at += 1;
        continue;
      }
      if (next >= 128) break;
    }
    scannedGeneral = false;
    scannedHash = hash;
    return at;
  }
  scannedGeneral = true;
  return wordEnd(text, start, length);
};

/** Whether a word starts at `at` (a letter or digit, the text read as if it ended at `length`). */
const startsWord = (text: string, at: number, length: number): boolean => {
  const code = text.charCodeAt(at);
  return code < 128 ? isWordCode(code) : wordCharLength(text, at, length) > 0;
};

/**
 * The stems of a text's words, in order, without building tokens: what an index needs of a source. The same
 * words as `tokenize` reads, found in one pass: a word of ASCII letters and digits (joined by "'", ".", ",",
 * "-") is hashed as it is scanned and looked up at its end; a word that meets any other character is read
 * again from its start by the general scanner (`wordEnd`), which knows accents, marks and invisible characters.
 * With `from` and `to`, the stems of `text.slice(from, to)`, read in `text` itself: an index reads each
 * sentence of a source this way, where reading a sentence's slice made every character a look through the
 * slice to the source.
 */
export const stemsOf = (text: string, from = 0, to = text.length): string[] => {
  const stems: string[] = [];
  const length = Math.min(Math.max(to, 0), text.length);
  let at = Math.max(from, 0);
  while (at < length) {
    const code = text.charCodeAt(at);
    if (code < 128 && !isWordCode(code)) {
      at += 1;
      continue;
    }
    if (code >= 128 && wordCharLength(text, at, length) === 0) {
      at += 1;
      continue;
    }
    const start = at;
    // An ASCII word, hashed as it is read; `general` when it meets a character only `wordEnd` can judge (its
    // first one included).
    let hash = fnvOffset;
    let general = false;
    while (!general) {
      // Past the end of the range nothing continues the word (-1 is no character).
      const unit = at < length ? text.charCodeAt(at) : -1;
      if (isWordCode(unit)) {
        hash = Math.imul(hash ^ unit, fnvPrime);
        at += 1;
        continue;
      }
      if (at < length && unit >= 128) {
        general = true;
        break;
      }
      // A joiner continues the word when a letter or digit follows it.
      if (at + 1 < length && isJoiner(unit)) {
        const next = text.charCodeAt(at + 1);
        if (isWordCode(next)) {
          hash = Math.imul(hash ^ unit, fnvPrime);
          at += 1;
          continue;
        }
        if (next >= 128) general = true;
      }
      break;
    }
    if (general) {
      at = wordEnd(text, start, length);
      stems.push(formsAt(text, start, at).stem);
    } else stems.push(asciiStem(text, start, at, hash));
  }
  return stems;
};

/** The words of a text with their offsets (plus `offset`), lower-cased forms and stems. */
export const tokenize = (text: string, offset = 0): Token[] => {
  const tokens: Token[] = [];
  const length = text.length;
  let at = 0;
  while (at < length) {
    if (!startsWord(text, at, length)) {
      at += 1;
      continue;
    }
    const start = at;
    at = scanWord(text, start, length);
    // The span and `text` are the word as written, so findings point into the caller's text; its lower-cased
    // form and stem are read from the word with invisible characters dropped and accents composed.
    const forms = scannedGeneral ? formsAt(text, start, at) : asciiForms(text, start, at, scannedHash);
    tokens.push({
      text: text.slice(start, at),
      span: { start: offset + start, end: offset + at },
      lower: forms.lower,
      stem: forms.stem,
    });
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

let stopwordStemSet: ReadonlySet<string> | undefined;
/** The stems of the stopwords: what filters a sequence of stems (an index's) down to content words. */
export const stopwordStems = (): ReadonlySet<string> => {
  stopwordStemSet ??= new Set([...stopwords].map((word) => stem(word)));
  return stopwordStemSet;
};

// The stemmer's tests, made once: a regular expression literal is a new object each time it is evaluated.
const sibilantEs = /(?:x|ch|sh|ss|z)es$/;
/** Doubled letters a stem keeps ("fall", "pass", "buzz"). */
const keptDouble = /[lsz]/;

/**
 * A light suffix stemmer (a small subset of Porter's rules): enough to match "increased" with "increases"
 * and "companies" with "company" without a dictionary. Numbers and short words are left alone.
 */
export const stem = (lower: string): string => {
  if (lower.length <= 3 || hasDigit(lower)) return lower;
  let word = lower.endsWith("'s") ? lower.slice(0, -2) : lower;
  if (word.endsWith("ies") && word.length > 4) word = `${word.slice(0, -3)}y`;
  else if (word.endsWith("sses")) word = word.slice(0, -2);
  else if (word.endsWith("es") && sibilantEs.test(word)) word = word.slice(0, -2);
  else if (word.endsWith("s") && !word.endsWith("ss") && !word.endsWith("us") && !word.endsWith("is"))
    word = word.slice(0, -1);
  if (word.endsWith("ing") && word.length > 5) word = undouble(word.slice(0, -3));
  else if (word.endsWith("ed") && word.length > 4) word = undouble(word.slice(0, -2));
  if (word.endsWith("ly") && word.length > 5) word = word.slice(0, -2);
  if (word.endsWith("e") && word.length > 4) word = word.slice(0, -1);
  return word;
};

const undouble = (word: string): string =>
  word.length > 3 && word.at(-1) === word.at(-2) && !keptDouble.test(word.at(-1) ?? "")
    ? word.slice(0, -1)
    : word;

/** Content tokens: not stopwords, not pure punctuation. */
export const contentTokens = (tokens: readonly Token[]): Token[] =>
  tokens.filter((t) => !isStopword(t.lower));
