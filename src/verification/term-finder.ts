import { isAsciiDigit, isAsciiLetterOrDigit } from "../text/ascii.js";

/** Whether a UTF-16 code is part of a word: an ASCII letter or digit, or any code from U+00C0 on. */
const isWordCode = (code: number) => isAsciiLetterOrDigit(code) || code >= 0xc0;

interface ScanTables {
  /**
   * Each UTF-16 code's lower case where that is one code, the code itself where it is longer ("İ") or none:
   * the text is compared with the terms a code at a time, so a 10 MB source is never copied lower-cased. Greek
   * final sigma folds to sigma, as capital sigma does, because a word's last letter lower-cases to either
   * depending on where it stands.
   */
  readonly fold: Uint16Array;
  /** 1 for each code `isWordCode` holds for: one load instead of four comparisons in the scan. */
  readonly wordCodes: Uint8Array;
}

/** Built on the first use of focusing in a thread (65,536 codes each, about 10 ms together). */
let tables: ScanTables | undefined;
const scanTables = (): ScanTables => {
  if (tables !== undefined) return tables;
  const fold = new Uint16Array(65_536);
  const wordCodes = new Uint8Array(65_536);
  for (let code = 0; code < fold.length; code++) {
    const lower = String.fromCharCode(code).toLowerCase();
    fold[code] = lower.length === 1 ? lower.charCodeAt(0) : code;
    wordCodes[code] = isWordCode(code) ? 1 : 0;
  }
  fold[0x3c2] = 0x3c3;
  tables = { fold, wordCodes };
  return tables;
};

/**
 * Lower cases of the second codes (low surrogates, U+DC00-U+DFFF) of letters written after `high`, by their
 * offset from U+DC00: a letter outside the first plane is two codes, and whether its second one changes in
 * lower case depends on the first (Deseret, Osage, Adlam... have case; Gothic has none). Every such pair keeps
 * its first code in lower case, so the second code alone carries the change. Made the first time a text holds
 * `high` (1,024 letters, well under a millisecond) and kept for the thread; a text holds few distinct ones.
 */
const lowSurrogateFolds = new Map<number, Uint16Array>();
const lowSurrogateFold = (high: number): Uint16Array => {
  let folds = lowSurrogateFolds.get(high);
  if (folds === undefined) {
    folds = new Uint16Array(1_024);
    for (let offset = 0; offset < 1_024; offset++) {
      const low = 0xdc00 + offset;
      const lower = String.fromCharCode(high, low).toLowerCase();
      folds[offset] = lower.length === 2 && lower.charCodeAt(0) === high ? lower.charCodeAt(1) : low;
    }
    lowSurrogateFolds.set(high, folds);
  }
  return folds;
};

/**
 * The lower case of the code at `at` of `text`, as the terms are compared with it: through `fold`, or, for the
 * second code of a letter outside the first plane, through that letter's first code.
 */
const foldedAt = (fold: Uint16Array, text: string, at: number): number => {
  const code = text.charCodeAt(at);
  if ((code & 0xfc00) !== 0xdc00 || at === 0) return fold[code] as number;
  const high = text.charCodeAt(at - 1);
  return (high & 0xfc00) === 0xd800 ? (lowSurrogateFold(high)[code - 0xdc00] as number) : code;
};

/**
 * Buckets by the low bytes of a word's first two characters, folded: a small integer key, read without
 * allocating; two terms that share a bucket are told apart by comparing them with the text.
 */
const bucketOf = (first: number, second: number) => ((first & 0xff) << 8) | (second & 0xff);
const bucketCount = 65_536;

/**
 * Where a text's words start, grouped by bucket (`bucketOf` their first two folded codes): entries
 * `bucketStarts[b]` to `bucketStarts[b + 1]` of `offsets` are bucket b's, in text order, and `parts` gives the
 * part of the text each one lies in (the last of `partStarts` at or before it). A text searched again and again
 * (a filing every answer is checked against) is read once into this, and each search then visits only the word
 * starts of its terms' buckets (`TermFinder.byWordStarts`) instead of every character of the text.
 */
export interface WordStarts {
  readonly bucketStarts: Int32Array;
  readonly offsets: Int32Array;
  readonly parts: Int32Array;
}

/**
 * `WordStarts` of `text`, word starts found by the scan's rule (a word's code after one that is not), each
 * bucketed by its first code and the next, folded as the scan folds them. Two passes: one counts each bucket's
 * words, one places them. `partStarts` are ascending offsets (a passage's start each).
 */
export const wordStartsOf = (text: string, partStarts: Int32Array): WordStarts => {
  const { fold, wordCodes } = scanTables();
  const length = text.length;
  const bucketStarts = new Int32Array(bucketCount + 1);
  const keyAt = (at: number) =>
    bucketOf(
      fold[text.charCodeAt(at)] as number,
      at + 1 < length ? (fold[text.charCodeAt(at + 1)] as number) : 0,
    );
  let before = 0;
  let words = 0;
  for (let at = 0; at < length; at++) {
    const word = wordCodes[text.charCodeAt(at)] as number;
    if (word > before) {
      const counted = keyAt(at) + 1;
      bucketStarts[counted] = (bucketStarts[counted] as number) + 1;
      words += 1;
    }
    before = word;
  }
  for (let bucket = 1; bucket <= bucketCount; bucket++)
    bucketStarts[bucket] = (bucketStarts[bucket] as number) + (bucketStarts[bucket - 1] as number);
  const next = bucketStarts.slice(0, bucketCount);
  const offsets = new Int32Array(words);
  const parts = new Int32Array(words);
  let part = 0;
  before = 0;
  for (let at = 0; at < length; at++) {
    const word = wordCodes[text.charCodeAt(at)] as number;
    if (word > before) {
      while (part + 1 < partStarts.length && (partStarts[part + 1] as number) <= at) part += 1;
      const key = keyAt(at);
      const place = next[key] as number;
      next[key] = place + 1;
      offsets[place] = at;
      parts[place] = part;
    }
    before = word;
  }
  return { bucketStarts, offsets, parts };
};

/**
 * A finder of `terms`: `find(text, found)` calls `found(term, at)` for every place a term starts a word of
 * `text`, in any case, in text order: one pass over the text, each word start looked up by its first two
 * characters among the terms, instead of one search of the whole text per term. A term that is a figure must
 * also end where the figure does ("20" does not find 2019). The text is read as written, each code folded to
 * lower case through a table as it is compared.
 */
export const termFinder = (terms: readonly string[]) => {
  const { fold, wordCodes } = scanTables();
  const buckets: number[][] = [];
  const bucketAt = new Int32Array(65_536).fill(-1);
  // By UTF-16 code, as the text is read: a letter outside the first plane is two of them.
  const termCodes = terms.map((term) =>
    Uint16Array.from({ length: term.length }, (_, at) => foldedAt(fold, term, at)),
  );
  // Only a term holding a letter outside the first plane can match the second code of such a letter, so only
  // then are the text's codes folded in pairs (`lookUpInPairs`); otherwise each code folds alone, through `fold`.
  const pairs = termCodes.some((codes) => codes.some((code) => (code & 0xf800) === 0xd800));
  for (const [index, codes] of termCodes.entries()) {
    const key = bucketOf(codes[0] ?? 0, codes[1] ?? 0);
    if (bucketAt[key] === -1) {
      bucketAt[key] = buckets.length;
      buckets.push([]);
    }
    buckets[bucketAt[key] as number]?.push(index);
  }
  /** Whether `codes` are written at `at` of `text`, in any case, its first two characters known to be. */
  const startsAt = (text: string, at: number, codes: Uint16Array): boolean => {
    if (at + codes.length > text.length) return false;
    for (let k = 2; k < codes.length; k++) if (fold[text.charCodeAt(at + k)] !== codes[k]) return false;
    return true;
  };
  /** Reports every term written at `at`, a word's start whose first code is `raw`. */
  const lookUp = (text: string, at: number, raw: number, found: (term: number, at: number) => void): void => {
    const length = text.length;
    const code = fold[raw] as number;
    const second = at + 1 < length ? (fold[text.charCodeAt(at + 1)] as number) : 0;
    const bucket = bucketAt[bucketOf(code, second)] as number;
    if (bucket === -1) return;
    const candidates = buckets[bucket] as number[];
    for (let c = 0; c < candidates.length; c++) {
      const index = candidates[c] as number;
      const codes = termCodes[index] as Uint16Array;
      // The bucket holds terms by the low bytes of their first two codes: the codes themselves are compared.
      if (codes[0] !== code || codes[1] !== second || !startsAt(text, at, codes)) continue;
      const after = at + codes.length;
      if (isAsciiDigit(code) && after < length && isAsciiDigit(text.charCodeAt(after))) continue;
      found(index, at);
    }
  };
  /** `lookUp` for terms with letters outside the first plane: each code of the text folded with the one before. */
  const lookUpInPairs = (
    text: string,
    at: number,
    raw: number,
    found: (term: number, at: number) => void,
  ): void => {
    const length = text.length;
    const code = fold[raw] as number;
    const second = at + 1 < length ? foldedAt(fold, text, at + 1) : 0;
    const bucket = bucketAt[bucketOf(code, second)] as number;
    if (bucket === -1) return;
    for (const index of buckets[bucket] as number[]) {
      const codes = termCodes[index] as Uint16Array;
      if (codes[0] !== code || codes[1] !== second || at + codes.length > length) continue;
      let matches = true;
      for (let k = 2; k < codes.length && matches; k++) matches = foldedAt(fold, text, at + k) === codes[k];
      if (!matches) continue;
      const after = at + codes.length;
      if (isAsciiDigit(code) && after < length && isAsciiDigit(text.charCodeAt(after))) continue;
      found(index, at);
    }
  };
  /**
   * The same finds read from the text's `WordStarts` (built by `wordStartsOf` from this very text), term by
   * term, each term's in text order, with the part each lies in: `found(term, at, part)`. Only the word starts of
   * the terms' buckets are visited. Undefined when a term holds a letter outside the first plane, whose text
   * codes the scan folds in pairs.
   */
  const byWordStarts = pairs
    ? undefined
    : (text: string, starts: WordStarts, found: (term: number, at: number, part: number) => void): void => {
        const length = text.length;
        for (let index = 0; index < termCodes.length; index++) {
          const codes = termCodes[index] as Uint16Array;
          // As in the scan, a term of one code never matches (it has no second code to compare).
          if (codes.length < 2) continue;
          const code = codes[0] ?? 0;
          const second = codes[1] ?? 0;
          const bucket = bucketOf(code, second);
          const end = starts.bucketStarts[bucket + 1] as number;
          for (let k = starts.bucketStarts[bucket] as number; k < end; k++) {
            const at = starts.offsets[k] as number;
            if (fold[text.charCodeAt(at)] !== code) continue;
            if (
              (at + 1 < length ? fold[text.charCodeAt(at + 1)] : 0) !== second ||
              !startsAt(text, at, codes)
            )
              continue;
            const after = at + codes.length;
            if (isAsciiDigit(code) && after < length && isAsciiDigit(text.charCodeAt(after))) continue;
            found(index, at, starts.parts[k] as number);
          }
        }
      };
  if (pairs)
    return {
      byWordStarts,
      find: (text: string, found: (term: number, at: number) => void): void => {
        let before = 0;
        for (let at = 0; at < text.length; at++) {
          const raw = text.charCodeAt(at);
          const word = wordCodes[raw] as number;
          if (word > before) lookUpInPairs(text, at, raw, found);
          before = word;
        }
      },
    };
  return {
    byWordStarts,
    find: (text: string, found: (term: number, at: number) => void): void => {
      const length = text.length;
      // One pass, a code at a time: a word starts where a word's code follows one that is not.
      let before = 0;
      for (let at = 0; at < length; at++) {
        const raw = text.charCodeAt(at);
        const word = wordCodes[raw] as number;
        if (word > before) lookUp(text, at, raw, found);
        before = word;
      }
    },
  };
};
