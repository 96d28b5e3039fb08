import { LRUCache } from "lru-cache";
import {
  type CacheStats,
  cacheStatsOf,
  countEvictions,
  holdsNothing,
  makeCacheCounts,
} from "../../model/cache-stats.js";
import type { EvidenceSource } from "../../model/layer.js";
import {
  charactersOf,
  defaultSecondSight,
  fingerprintOf,
  makeSecondSight,
  type SecondSightOptions,
} from "../../text/second-sight.js";
import { defaultSourceCacheLimits, makeTextCache, type TextCacheLimits } from "../../text/text-cache.js";
import {
  buildSourceIndex,
  readSourceSentences,
  type SentenceReader,
  type SourceIndex,
  type SourceSentence,
} from "./source-index.js";

export interface IndexCacheLimits {
  /** How many distinct evidence sets are kept. */
  readonly entries: number;
  /** How many characters of evidence are kept in all. */
  readonly characters: number;
  /**
   * The sentences and stems of single sources, kept apart from the sets they came in (default
   * `defaultSourceCacheLimits`): a source that comes back in other company is not read again.
   */
  readonly sources?: TextCacheLimits;
}

export const defaultIndexCacheLimits: IndexCacheLimits = {
  entries: 64,
  characters: 8_000_000,
  sources: defaultSourceCacheLimits,
};

/** An evidence set's texts, their index, and their size as the character budget counts it. */
interface Kept {
  readonly texts: readonly string[];
  readonly index: SourceIndex;
  readonly size: number;
}

/** Whether `evidence` holds `texts`, in order (the same strings compare at once). */
const sameTexts = (texts: readonly string[], evidence: readonly EvidenceSource[]): boolean =>
  texts.length === evidence.length && evidence.every((source, at) => source.text === texts[at]);

/** A source index of evidence, answered from the cache when it holds one; `stats` counts what it did. */
export interface IndexCache {
  (evidence: readonly EvidenceSource[]): SourceIndex;
  /** The cache of whole sets (`grounding.evidence-sets`) and of single sources (`grounding.sources`). */
  readonly stats: () => readonly CacheStats[];
}

/**
 * Source indexes of recent evidence sets, least recently used out first: an assistant that checks many
 * answers against the same documents indexes them at most twice. A set is kept from the second time it is
 * seen, or the first time when it is large (`makeSecondSight`): keeping every set made the garbage collector
 * carry indexes that distinct evidence never uses again. Bounded by entries and characters (lru-cache: the
 * same evictions as a hand-kept Map in use order, in half the bookkeeping time, measured in
 * bench/libraries/lru.bench.ts). A set it does not hold is indexed from its sources' sentences and stems, which
 * are kept per source under the same admission (`limits.sources`): a retrieval system hands the same documents
 * to many answers in ever new combinations, and such a source is then read at most twice.
 */
export const makeIndexCache = (
  limits: IndexCacheLimits = defaultIndexCacheLimits,
  admission: SecondSightOptions = defaultSecondSight,
): IndexCache => {
  const counts = makeCacheCounts();
  if (limits.entries === 0 || limits.characters === 0) {
    const build = (evidence: readonly EvidenceSource[]) => {
      counts.bypassed += 1;
      return buildSourceIndex(evidence);
    };
    return Object.assign(build, { stats: () => [cacheStatsOf(setsCache, counts, holdsNothing)] });
  }
  const admit = makeSecondSight(admission);
  // A set not kept whole is indexed from its sources' readings, each kept on its own (see `makeTextCache`).
  const sentencesOf = makeTextCache<readonly SourceSentence[]>(
    limits.sources ?? defaultSourceCacheLimits,
    admission,
  );
  const readSentences: SentenceReader = (text) => sentencesOf(text, "", readSourceSentences);
  // Kept sets by their fingerprint (`fingerprintOf`): a look-up reads about a thousand characters of the
  // evidence, where a key of the texts joined copied and hashed all of them on every call. Sets that share a
  // fingerprint are told apart by their texts: the entry is answered only for the same texts, in order.
  const cache = new LRUCache<number, Kept>({
    max: limits.entries,
    maxSize: limits.characters,
    sizeCalculation: (kept) => Math.max(1, kept.size),
    dispose: countEvictions(counts),
  });
  // The last evidence indexed and its index, kept whether or not the cache admitted it: a request that grounds
  // its text again (once the numbers layer has explained some figures) asks for the same evidence right away.
  // Only evidence within the character budget: a larger set is never held past its call.
  let last: Kept | undefined;
  const indexFor = (evidence: readonly EvidenceSource[]): SourceIndex => {
    if (last && sameTexts(last.texts, evidence)) {
      counts.lookups += 1;
      counts.hits += 1;
      return last.index;
    }
    const texts = evidence.map((source) => source.text);
    // Counted as the texts and a separator between each two, as a joined key was.
    const size = Math.max(0, texts.length - 1) + charactersOf(texts);
    // An evidence set larger than the whole budget is indexed and not kept (lru-cache would refuse it too), so
    // neither looked up nor fingerprinted.
    if (size > limits.characters) {
      counts.bypassed += 1;
      last = undefined;
      return buildSourceIndex(evidence, readSentences);
    }
    counts.lookups += 1;
    const print = fingerprintOf(texts);
    const kept = cache.get(print);
    const hit = kept !== undefined && sameTexts(kept.texts, evidence) ? kept : undefined;
    if (hit !== undefined) counts.hits += 1;
    const index = hit?.index ?? buildSourceIndex(evidence, readSentences);
    const entry = hit ?? { texts, index, size };
    if (hit === undefined && admit(texts, print)) cache.set(print, entry);
    last = entry;
    return index;
  };
  const stats = () => [
    cacheStatsOf(setsCache, counts, {
      entries: cache.size,
      characters: cache.calculatedSize,
      maxEntries: limits.entries,
      maxCharacters: limits.characters,
    }),
    sentencesOf.stats("grounding.sources"),
  ];
  return Object.assign(indexFor, { stats });
};

const setsCache = "grounding.evidence-sets";
