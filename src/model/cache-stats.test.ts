import { describe, expect, it } from "vitest";
import { type CacheStats, sumCacheStats } from "./cache-stats.js";

const stats = (cache: string, n: number, bounds: Partial<CacheStats> = {}): CacheStats => ({
  cache,
  lookups: 10 * n,
  hits: 5 * n,
  bypassed: n,
  evictions: 2 * n,
  entries: 3 * n,
  characters: 100 * n,
  ...bounds,
});

describe("sumCacheStats", () => {
  it("adds up the caches of each name, each name once in the order first met", () => {
    const summed = sumCacheStats([
      [stats("grounding.sources", 1, { maxEntries: 8 }), stats("numbers.sources", 2)],
      [stats("numbers.sources", 3), stats("grounding.sources", 4, { maxEntries: 8 })],
      [stats("focus.texts", 5, { maxCharacters: 1_000 })],
    ]);
    expect(summed).toEqual([
      { ...stats("grounding.sources", 5), maxEntries: 16 },
      stats("numbers.sources", 5),
      { ...stats("focus.texts", 5), maxCharacters: 1_000 },
    ]);
  });

  it("drops a bound that some cache of the name lacks: the sum has none", () => {
    const [summed] = sumCacheStats([[stats("a", 1, { maxEntries: 4 })], [stats("a", 1)]]);
    expect(summed).toEqual(stats("a", 2));
    expect(summed).not.toHaveProperty("maxEntries");
  });

  it("leaves what it is given unchanged", () => {
    const given = [stats("a", 1)];
    sumCacheStats([given, [stats("a", 2)]]);
    expect(given).toEqual([stats("a", 1)]);
  });
});
