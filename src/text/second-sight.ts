import { fnvOffset, fnvPrime } from "../model/fnv1a.js";

/**
 * Admission on second sight, for caches of work done on texts (the indexes the checks build of evidence): a
 * cache keeps what it is given only once it has been given the same texts before, or when they are large.
 *
 * A cache that keeps every evidence set pays for each one: the memory it holds, and the garbage collector
 * copying and promoting every index it keeps. Evidence that never comes back (a retrieval system hands each
 * answer its own passages) gains nothing from that. Measured on distinct real payloads (about 11 KB of
 * sources each), keeping everything cost a fifth of the verifier's speed. So a set is kept from its second
 * sight on: evidence that does come back is indexed twice, then served from the cache; evidence large enough
 * that indexing it twice would cost more than holding it is kept at once.
 *
 * What is remembered of the texts seen once is a 32-bit fingerprint each, the last `remember` of them. A
 * fingerprint reads each text's length, its first and last 64 characters and about a thousand others, evenly
 * spaced (hashing every character of every evidence set cost more than 1% of a verification): two sets that
 * share a fingerprint only make the cache keep the second one sooner, and the cache itself compares the whole
 * texts.
 */
export interface SecondSightOptions {
  /** How many fingerprints of texts seen once are remembered (the oldest is forgotten first). */
  readonly remember: number;
  /** Texts this long or longer (all of them together) are admitted the first time they are seen. */
  readonly admitAtOnceChars: number;
}

export const defaultSecondSight: SecondSightOptions = { remember: 4_096, admitAtOnceChars: 100_000 };

/**
 * Characters of one text a fingerprint reads evenly spaced (about: every `length / sampled`-th one), besides the
 * first and last `endCharacters`.
 */
const sampled = 1_024;
const endCharacters = 64;

/**
 * FNV-1a over the texts' UTF-16 units (every character of a text up to 1,024 characters; of a longer text,
 * evenly spaced ones, then its first and last `endCharacters`), each text closed by its length, so ["ab", "c"]
 * and ["a", "bc"] differ. Hashed as it samples, with `fnv1a`'s constants: building a sample string for `fnv1a`
 * cost 134 against 28 µs per real payload.
 */
export const fingerprintOf = (texts: readonly string[]): number => {
  if (isLastFingerprinted(texts)) return lastPrint;
  const print = hashOf(texts);
  remember(texts, print);
  return print;
};

/**
 * `fingerprintOf([text])`, without changing which set was fingerprinted last: a cache of single sources asks for
 * each source of a set in turn, and would otherwise make the set's own fingerprint, asked for again by the next
 * cache of the same verification, be worked out anew. The last few texts asked about are remembered with their
 * fingerprints (each layer's cache asks about the same sources in one verification), only texts of fewer than
 * `rememberedTextChars` characters: a longer one's fingerprint reads about a thousand of them anyway.
 */
export const fingerprintOfText = (text: string): number => {
  for (let at = 0; at < recentTexts.length; at++)
    if (recentTexts[at] === text) return recentPrints[at] as number;
  const print = mix(fnvOffset, text) >>> 0;
  if (text.length < rememberedTextChars) {
    recentTexts[nextRecent] = text;
    recentPrints[nextRecent] = print;
    nextRecent = (nextRecent + 1) % recentTexts.length;
  }
  return print;
};

const rememberedTextChars = 20_000;
/** Empty slots hold `undefined`, which no text is (an empty string is a text, with a fingerprint of its own). */
const recentTexts: (string | undefined)[] = new Array<string | undefined>(32).fill(undefined);
const recentPrints = new Uint32Array(32);
let nextRecent = 0;

const hashOf = (texts: readonly string[]): number => {
  let hash = fnvOffset;
  for (const text of texts) hash = mix(hash, text);
  return hash >>> 0;
};

/** `hash` with one text's sampled characters and its length mixed in. */
const mix = (start: number, text: string): number => {
  let hash = start;
  const step = Math.max(1, Math.floor(text.length / sampled));
  for (let at = 0; at < text.length; at += step) hash = Math.imul(hash ^ text.charCodeAt(at), fnvPrime);
  if (step > 1) {
    // A longer text's first and last characters are read whole as well: texts of one length that differ
    // only in a heading or a closing line (a counter, a time of retrieval) would otherwise share a
    // fingerprint, and each would be kept at its first sight.
    const head = Math.min(text.length, endCharacters);
    for (let at = 0; at < head; at++) hash = Math.imul(hash ^ text.charCodeAt(at), fnvPrime);
    for (let at = Math.max(head, text.length - endCharacters); at < text.length; at++)
      hash = Math.imul(hash ^ text.charCodeAt(at), fnvPrime);
  }
  return Math.imul(hash ^ text.length, fnvPrime);
};

/**
 * The texts fingerprinted last and their fingerprint: the checks' caches each ask for the fingerprint of the
 * same evidence in one verification, and the second asks for the same strings. Compared string by string (the
 * same string objects compare at once); kept only for sets below `rememberedChars`, so a large set is never
 * held past its call by this.
 */
let lastTexts: readonly string[] = [];
let lastPrint = 0;
const rememberedChars = 100_000;

const isLastFingerprinted = (texts: readonly string[]): boolean => {
  if (texts.length === 0 || texts.length !== lastTexts.length) return false;
  for (let at = 0; at < texts.length; at++) if (texts[at] !== lastTexts[at]) return false;
  return true;
};

/** How many characters the texts hold in all. */
export const charactersOf = (texts: readonly string[]): number => {
  let characters = 0;
  for (const text of texts) characters += text.length;
  return characters;
};

const remember = (texts: readonly string[], print: number): void => {
  // A copy of the list: the caller may change its own afterwards.
  lastTexts = charactersOf(texts) < rememberedChars ? texts.slice() : [];
  lastPrint = print;
};

/**
 * A doorkeeper: `admit(texts)` says whether a cache should keep its work on `texts` now. It is true for texts
 * of `admitAtOnceChars` or more, and for texts whose fingerprint it has seen; otherwise it remembers the
 * fingerprint and says false. A caller that has the texts' fingerprint (`fingerprintOf`) already passes it.
 */
export const makeSecondSight = (
  options: SecondSightOptions = defaultSecondSight,
): ((texts: readonly string[], print?: number) => boolean) => {
  if (!Number.isInteger(options.remember) || options.remember < 0)
    throw new RangeError(`remember must be a whole number of 0 or more, not ${options.remember}`);
  const seen = new Set<number>();
  // The remembered fingerprints in the order they came, as a ring: `next` is the oldest once it is full.
  const ring: number[] = [];
  let next = 0;
  return (texts, known) => {
    if (charactersOf(texts) >= options.admitAtOnceChars) return true;
    const print = known ?? fingerprintOf(texts);
    if (seen.has(print)) return true;
    if (options.remember === 0) return false;
    if (ring.length < options.remember) ring.push(print);
    else {
      seen.delete(ring[next] as number);
      ring[next] = print;
      next = (next + 1) % options.remember;
    }
    seen.add(print);
    return false;
  };
};
