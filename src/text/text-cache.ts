import { LRUCache } from "lru-cache";
import {
  type CacheStats,
  cacheStatsOf,
  countEvictions,
  holdsNothing,
  makeCacheCounts,
} from "../model/cache-stats.js";
import {
  defaultSecondSight,
  fingerprintOfText,
  makeSecondSight,
  type SecondSightOptions,
} from "./second-sight.js";

/** Bounds of a cache of work done on single texts. */
export interface TextCacheLimits {
  /** How many texts are kept. */
  readonly entries: number;
  /** How many characters the kept texts hold in all; a text longer than a quarter of this is never kept. */
  readonly characters: number;
}

/**
 * How many readings of single sources a layer keeps: 2,048 sources, 2,000,000 characters in all. A reading holds
 * more than its text: measured over the labelled sets' contexts, the grounding layer's sentences and stems 7.5
 * bytes per character of prose and 13 of tables, the numbers layer's figures 5.5 and 18, so a layer's full cache
 * holds about 11 to 37 MB besides the texts. Half as many characters kept a retrieval system's documents too
 * seldom to matter (docs/BENCHMARKS.md, stop 60).
 */
export const defaultSourceCacheLimits: TextCacheLimits = { entries: 2_048, characters: 2_000_000 };

/** Work done on one text, with the text and the variant of the work (the options it was done with). */
interface Kept<V> {
  readonly text: string;
  readonly variant: string;
  readonly value: V;
}

/** `read(text)` answered from the cache when it holds the text's reading; `stats` counts what it did. */
export interface TextCache<V> {
  (text: string, variant: string, read: (text: string) => V): V;
  /** What the cache did and holds, named `cache`. */
  readonly stats: (cache: string) => CacheStats;
}

/**
 * `read(text)`, remembered per text: the same source (a document a retrieval system hands to many answers, in
 * ever new company) is read once, whatever the other sources of each request. `variant` names the options the
 * reading depends on; a text read with other options is read again (and replaces the kept reading).
 *
 * Bounded by entries and characters, least recently used out first (lru-cache). A text is kept from the second
 * time it is read, or the first when it is large (`makeSecondSight`): texts that never come back would only make
 * the garbage collector carry their readings. Texts are found by fingerprint (`fingerprintOfText`, about a
 * thousand characters read) and told apart by comparing the whole text, so a reading is only ever answered for
 * its own text. The readings are shared between callers: they must never be changed.
 */
export const makeTextCache = <V>(
  limits: TextCacheLimits = defaultSourceCacheLimits,
  admission: SecondSightOptions = defaultSecondSight,
): TextCache<V> => {
  const counts = makeCacheCounts();
  if (limits.entries <= 0 || limits.characters <= 0) {
    // No cache: every call is read, and counted as passed by.
    const read = (text: string, _variant: string, read: (text: string) => V) => {
      counts.bypassed += 1;
      return read(text);
    };
    return Object.assign(read, { stats: (name: string) => cacheStatsOf(name, counts, holdsNothing) });
  }
  const largestKept = Math.floor(limits.characters / 4);
  const admit = makeSecondSight(admission);
  const cache = new LRUCache<number, Kept<V>>({
    max: limits.entries,
    maxSize: limits.characters,
    sizeCalculation: (kept) => Math.max(1, kept.text.length),
    dispose: countEvictions(counts),
  });
  const cached = (text: string, variant: string, read: (text: string) => V): V => {
    if (text.length > largestKept) {
      counts.bypassed += 1;
      return read(text);
    }
    counts.lookups += 1;
    const print = fingerprintOfText(text);
    const kept = cache.get(print);
    if (kept !== undefined && kept.variant === variant && kept.text === text) {
      counts.hits += 1;
      return kept.value;
    }
    const value = read(text);
    if (admit([text], print)) cache.set(print, { text, variant, value });
    return value;
  };
  const stats = (name: string) =>
    cacheStatsOf(name, counts, {
      entries: cache.size,
      characters: cache.calculatedSize,
      maxEntries: limits.entries,
      maxCharacters: limits.characters,
    });
  return Object.assign(cached, { stats });
};
