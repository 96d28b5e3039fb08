import { LRUCache } from "lru-cache";
import { cacheStatsOf, countEvictions, makeCacheCounts } from "../model/cache-stats.js";
import { makeSecondSight } from "../text/second-sight.js";
import { type Passage, passagesOf } from "./passages.js";
import { type WordStarts, wordStartsOf } from "./term-finder.js";

/** A text's passages and its word starts by bucket: what focusing reads of a text it has read before. */
interface TextFocusIndex {
  /** `passagesOf(text, 0)`: each call tags them with the text's place in its evidence. */
  readonly passages: readonly Passage[];
  /** The word starts, each with the passage it lies in. */
  readonly starts: WordStarts;
}

export interface FocusIndexCacheLimits {
  /** Texts shorter than this are always scanned: reading them again costs little. */
  readonly minChars: number;
  /**
   * Characters of texts whose index is kept, in all (an index takes about 1.4 bytes per character: 14.3 MB for
   * 10,000,000 characters of the labelled sets' contexts, built in 150 ms).
   */
  readonly characters: number;
  /** How many fingerprints of texts seen once are remembered. */
  readonly remember: number;
}

export const defaultFocusIndexCacheLimits: FocusIndexCacheLimits = {
  minChars: 100_000,
  characters: 32_000_000,
  remember: 256,
};

/**
 * Indexes of large texts focusing has read before, so an agent that checks answer after answer against one
 * filing finds each answer's passages from the filing's word starts instead of reading every character of it
 * again. Kept on second sight (`makeSecondSight`, large texts included), so a text seen once costs what a scan
 * costs and nothing more; least recently used out first past `characters`. `get` answers the index of a
 * text kept or admitted now, or undefined (the caller scans). Keyed by the text itself: the same string compares
 * at once, another with the same characters by comparing them.
 */
export const makeFocusIndexCache = (limits: FocusIndexCacheLimits = defaultFocusIndexCacheLimits) => {
  const counts = makeCacheCounts();
  const kept = new LRUCache<string, TextFocusIndex>({
    maxSize: limits.characters,
    sizeCalculation: (_index, text) => Math.max(1, text.length),
    dispose: countEvictions(counts),
  });
  // Large texts are not admitted at once here: a text seen once is only scanned.
  const admit = makeSecondSight({ remember: limits.remember, admitAtOnceChars: Number.POSITIVE_INFINITY });
  const get = (text: string): TextFocusIndex | undefined => {
    if (text.length < limits.minChars || text.length > limits.characters) {
      counts.bypassed += 1;
      return undefined;
    }
    counts.lookups += 1;
    const found = kept.get(text);
    if (found !== undefined) counts.hits += 1;
    if (found !== undefined || !admit([text])) return found;
    const passages = passagesOf(text, 0);
    const index = {
      passages,
      starts: wordStartsOf(
        text,
        Int32Array.from(passages, (passage) => passage.start),
      ),
    };
    kept.set(text, index);
    return index;
  };
  const stats = () =>
    cacheStatsOf("focus.texts", counts, {
      entries: kept.size,
      characters: kept.calculatedSize,
      maxCharacters: limits.characters,
    });
  return { get, size: () => kept.size, stats };
};

export type FocusIndexCache = ReturnType<typeof makeFocusIndexCache>;
