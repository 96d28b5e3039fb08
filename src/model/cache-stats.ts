/**
 * What one of a verifier's caches has done since the verifier was built, and what it holds now: enough to tell
 * whether the caches are sized for a corpus (many look-ups, few hits and many evictions: the corpus's recurring
 * documents do not fit).
 */
export interface CacheStats {
  /** Which cache, as `<owner>.<what it keeps>`: `grounding.evidence-sets`, `numbers.sources`... */
  readonly cache: string;
  /** Calls that looked in the cache. */
  readonly lookups: number;
  /** Of those, the calls the cache answered: work not done again. */
  readonly hits: number;
  /** Calls the cache did not look up for: their text or evidence is outside the sizes it keeps. */
  readonly bypassed: number;
  /** Entries dropped to make room for others, least recently used first. */
  readonly evictions: number;
  /** Entries held now. */
  readonly entries: number;
  /** Characters of text the entries hold now, as the cache's budget counts them. */
  readonly characters: number;
  /** The most entries the cache holds; absent when only characters bound it. */
  readonly maxEntries?: number;
  /** The most characters the cache holds; absent when only entries bound it. */
  readonly maxCharacters?: number;
}

/** A cache's running counts, which the cache adds to as it is used. */
export interface CacheCounts {
  lookups: number;
  hits: number;
  bypassed: number;
  evictions: number;
}

export const makeCacheCounts = (): CacheCounts => ({ lookups: 0, hits: 0, bypassed: 0, evictions: 0 });

/**
 * An lru-cache `dispose` that counts evictions: entries dropped to make room ("evict"), not those replaced under
 * their key ("set") or removed on purpose ("delete").
 */
export const countEvictions =
  (counts: CacheCounts) =>
  (_value: unknown, _key: unknown, reason: string): void => {
    if (reason === "evict") counts.evictions += 1;
  };

/** What a cache that keeps nothing (its bounds 0) holds. */
export const holdsNothing = { entries: 0, characters: 0, maxEntries: 0, maxCharacters: 0 } as const;

/** A cache's counts and holdings under its name. */
export const cacheStatsOf = (
  cache: string,
  counts: CacheCounts,
  holds: { entries: number; characters: number; maxEntries?: number; maxCharacters?: number },
): CacheStats => ({
  cache,
  lookups: counts.lookups,
  hits: counts.hits,
  bypassed: counts.bypassed,
  evictions: counts.evictions,
  entries: holds.entries,
  characters: holds.characters,
  ...(holds.maxEntries === undefined ? {} : { maxEntries: holds.maxEntries }),
  ...(holds.maxCharacters === undefined ? {} : { maxCharacters: holds.maxCharacters }),
});

/**
 * Stats of caches of one name added up, each name once, in the order first met: the caches of a pool's workers,
 * or of a worker's verifiers, taken as one. Counts, holdings and bounds all add (two workers' caches of 2,048
 * entries hold up to 4,096).
 */
export const sumCacheStats = (lists: readonly (readonly CacheStats[])[]): CacheStats[] => {
  const sums = new Map<string, CacheStats>();
  const add = (x: number | undefined, y: number | undefined) =>
    x === undefined || y === undefined ? undefined : x + y;
  for (const list of lists)
    for (const stats of list) {
      const sum = sums.get(stats.cache);
      if (sum === undefined) {
        sums.set(stats.cache, { ...stats });
        continue;
      }
      const maxEntries = add(sum.maxEntries, stats.maxEntries);
      const maxCharacters = add(sum.maxCharacters, stats.maxCharacters);
      sums.set(stats.cache, {
        cache: stats.cache,
        lookups: sum.lookups + stats.lookups,
        hits: sum.hits + stats.hits,
        bypassed: sum.bypassed + stats.bypassed,
        evictions: sum.evictions + stats.evictions,
        entries: sum.entries + stats.entries,
        characters: sum.characters + stats.characters,
        ...(maxEntries === undefined ? {} : { maxEntries }),
        ...(maxCharacters === undefined ? {} : { maxCharacters }),
      });
    }
  return [...sums.values()];
};
