import { describe, expect, it } from "vitest";
import { buildVerifier } from "../assembly/build-verifier.js";
import { lazyVerifier } from "../assembly/lazy-verifier.js";
import type { CacheStats } from "../model/cache-stats.js";
import type { VerificationRequest } from "../model/request.js";
import { createVerifier } from "./create-verifier.js";
import { createWorkerPoolVerifier } from "./worker-pool/create-worker-pool-verifier.js";

/** An answer and its two sources; `n` makes each one distinct. */
const payload = (n: number): VerificationRequest => ({
  text: `Plant ${n} made ${1_000 + n} units in 2024, up 12% on 2023.`,
  sources: [
    `Plant ${n} made ${1_000 + n} units in 2024. It opened in ${1_950 + n}.`,
    `Output at plant ${n} grew 12% from 2023 to 2024, the report says.`,
  ],
});

const named = (stats: readonly CacheStats[], cache: string): CacheStats => {
  const found = stats.find((each) => each.cache === cache);
  if (found === undefined)
    throw new Error(`no cache ${cache} in ${stats.map((each) => each.cache).join(", ")}`);
  return found;
};

const offlineCaches = [
  "focus.texts",
  "grounding.evidence-sets",
  "grounding.sources",
  "numbers.evidence-sets",
  "numbers.sources",
];

describe("a verifier's cache stats", () => {
  it("counts each evidence set it is asked for, and answers one that comes back from its caches", async () => {
    const verifier = createVerifier();
    try {
      expect((await verifier.cacheStats()).map((each) => each.cache)).toEqual(offlineCaches);
      for (let time = 0; time < 3; time++) await verifier.verify(payload(1));
      const again = await verifier.cacheStats();
      // The numbers layer reads a set once per verification: read, read again and kept (second sight), answered.
      expect(named(again, "numbers.evidence-sets")).toMatchObject({ lookups: 3, hits: 1, entries: 1 });
      expect(named(again, "grounding.evidence-sets").hits).toBeGreaterThanOrEqual(2);
      // New evidence: looked up, not found.
      await verifier.verify(payload(2));
      const after = await verifier.cacheStats();
      expect(named(after, "numbers.evidence-sets")).toMatchObject({ lookups: 4, hits: 1 });
      expect(named(after, "numbers.sources").lookups).toBeGreaterThan(
        named(again, "numbers.sources").lookups,
      );
      expect(named(after, "numbers.sources").hits).toBe(named(again, "numbers.sources").hits);
      // Short sources are never focused: the focus cache only counts the calls it passed by.
      expect(named(after, "focus.texts")).toMatchObject({ lookups: 0, hits: 0 });
    } finally {
      await verifier.close();
    }
  });

  it("builds nothing to answer for a lazy verifier not used yet", async () => {
    let builds = 0;
    const lazy = lazyVerifier(async () => {
      builds += 1;
      return createVerifier();
    });
    try {
      expect(await lazy.cacheStats?.()).toEqual([]);
      expect(builds).toBe(0);
      await lazy.verify(payload(3));
      expect(named((await lazy.cacheStats?.()) ?? [], "numbers.evidence-sets").lookups).toBe(1);
    } finally {
      await lazy.close();
    }
  });

  it("adds up a pool's workers: every verification's look-up counted once, whichever worker ran it", async () => {
    const pool = createWorkerPoolVerifier({ workers: 2 });
    try {
      // Eight distinct sets, each sent three times, four at once: both workers verify some.
      const requests = [0, 1, 2].flatMap(() => Array.from({ length: 8 }, (_, n) => payload(10 + n)));
      for (let at = 0; at < requests.length; at += 4)
        await Promise.all(requests.slice(at, at + 4).map((request) => pool.verify(request)));
      const stats = await pool.cacheStats();
      expect(stats.map((each) => each.cache)).toEqual([...offlineCaches, "pool.kept-texts"]);
      const sets = named(stats, "numbers.evidence-sets");
      expect(sets.lookups).toBe(24);
      // Each worker keeps a set from its second sight: the pool's routing sends a set back to its worker.
      expect(sets.hits).toBeGreaterThanOrEqual(8);
      // Two workers' caches of 16 sets each.
      expect(sets.maxEntries).toBe(32);
      expect(await pool.evidenceLayersOnly.cacheStats()).toEqual(stats);
    } finally {
      await pool.close();
    }
    await expect(pool.cacheStats()).rejects.toThrow();
  });

  it("counts a pool's large texts named to a worker instead of sent again", async () => {
    const pool = createWorkerPoolVerifier({ workers: 1 });
    const filing = `Plant 1 made 1001 units in 2024. ${"The plant ran three shifts all year. ".repeat(3_000)}`;
    try {
      // Kept the second time it is sent (second sight), named the third.
      for (let time = 0; time < 3; time++)
        await pool.verify({ text: "Plant 1 made 1001 units.", sources: [filing] });
      expect(named(await pool.cacheStats(), "pool.kept-texts")).toMatchObject({
        lookups: 3,
        hits: 1,
        entries: 1,
        characters: filing.length,
      });
    } finally {
      await pool.close();
    }
  });

  it("keeps a released verifier's counts, and asking does not keep a large-lane worker from releasing", async () => {
    const pool = createWorkerPoolVerifier({
      workers: 1,
      largeCallChars: 500,
      largeWorkerIdleMs: 400,
      settings: { maxTextLength: 2_000 },
    });
    const large: VerificationRequest = {
      text: "The tower was completed in 1889. It is 330 metres tall.",
      sources: ["The tower was completed in 1889 for the fair. It is 330 metres tall. ".repeat(10)],
    };
    try {
      await pool.verify(large);
      await pool.verify(large);
      expect(named(await pool.cacheStats(), "numbers.evidence-sets")).toMatchObject({
        lookups: 2,
        entries: 1,
      });
      // Asked every 100 ms, past several idle times: the release still comes, and drops what it held.
      let stats = await pool.cacheStats();
      for (let asked = 0; asked < 15 && named(stats, "numbers.evidence-sets").entries > 0; asked++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        stats = await pool.cacheStats();
      }
      expect(named(stats, "numbers.evidence-sets")).toMatchObject({ lookups: 2, entries: 0, characters: 0 });
      await pool.verify(large);
      expect(named(await pool.cacheStats(), "numbers.evidence-sets").lookups).toBe(3);
    } finally {
      await pool.close();
    }
  });

  it("sizes both layers' caches of single sources from the settings, in the thread and in each worker", async () => {
    const sourceCache = { entries: 3, characters: 5_000 };
    const verifier = createVerifier({ settings: { sourceCache } });
    const pool = createWorkerPoolVerifier({ workers: 2, settings: { sourceCache } });
    const built = await buildVerifier({}, {}, { VERACITY_SOURCE_CACHE_ENTRIES: "7" });
    try {
      const bounds = (stats: readonly CacheStats[]) =>
        ["grounding.sources", "numbers.sources"].map((cache) => {
          const { maxEntries, maxCharacters } = named(stats, cache);
          return { entries: maxEntries, characters: maxCharacters };
        });
      expect(bounds(await verifier.cacheStats())).toEqual([sourceCache, sourceCache]);
      // Two workers' caches of 3 sources each.
      const both = { entries: 6, characters: 10_000 };
      expect(bounds(await pool.cacheStats())).toEqual([both, both]);
      const fromEnvironment = { entries: 7, characters: 2_000_000 };
      expect(bounds((await built.cacheStats?.()) ?? [])).toEqual([fromEnvironment, fromEnvironment]);
      // Held to the bound: four documents, each seen twice (kept from the second sight), leave three.
      for (const n of [20, 21, 22, 23, 20, 21, 22, 23]) await verifier.verify(payload(n));
      const held = await verifier.cacheStats();
      expect(named(held, "grounding.sources")).toMatchObject({ entries: 3 });
      expect(named(held, "grounding.sources").evictions).toBeGreaterThan(0);
    } finally {
      await Promise.all([verifier.close(), pool.close(), built.close()]);
    }
  });
});
