import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LshDedupIndex } from "./lsh-index.js";
import { candidateProbability, defaultLshShape, lshShapeFor } from "./minhash.js";

const words = (count: number, prefix: string) =>
  Array.from({ length: count }, (_, i) => `${prefix}${i}`).join(" ");

describe("LshDedupIndex", () => {
  it("finds an exact copy and reports its id and similarity", () => {
    const index = new LshDedupIndex();
    index.add("mem-1", "Per ADR-003, we use Pixeltable for memory storage");
    index.add("mem-2", "The service exposes a REST API on port 8080");
    expect(index.findDuplicate("per adr-003 we use pixeltable for memory storage", 0.92)).toEqual({
      memoryId: "mem-1",
      similarity: 1,
    });
  });

  it("confirms candidates with the exact Jaccard: 12 of 13 words shared is a duplicate, 11 of 13 is not", () => {
    const index = new LshDedupIndex();
    index.add("base", words(12, "w"));
    expect(index.findDuplicate(`${words(12, "w")} extra`, 0.92)?.similarity).toBeCloseTo(12 / 13, 10);
    expect(index.findDuplicate(`${words(11, "w")} extra`, 0.92)).toBeUndefined();
  });

  it("forgets removed memories", () => {
    const index = new LshDedupIndex();
    index.add("a", "the cache lives in redis");
    index.remove("a");
    expect(index.findDuplicate("the cache lives in redis", 0.92)).toBeUndefined();
    expect(index.size).toBe(0);
  });

  it("refuses to grow beyond its limit", () => {
    const index = new LshDedupIndex({ maxEntries: 2 });
    index.add("a", "one");
    index.add("b", "two");
    expect(() => index.add("c", "three")).toThrow(RangeError);
  });

  it("agrees with the exact scan on random near-duplicates (no pair above the threshold missed here)", () => {
    // With 10 bands of 6 rows a pair at Jaccard 0.92 is missed with probability about 1e-4.
    expect(candidateProbability(0.92, defaultLshShape)).toBeGreaterThan(0.999);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 12, maxLength: 30 }),
        fc.integer({ min: 0, max: 3 }),
        (ids, edits) => {
          const base = ids.map((id) => `t${id}`);
          const copy = [...base.slice(edits), ...Array.from({ length: edits }, (_, i) => `new${i}`)];
          const index = new LshDedupIndex();
          index.add("base", base.join(" "));
          index.add("other", "unrelated words only here");
          const exact = index.scanDuplicates(copy.join(" "), 0.92).map((match) => match.memoryId);
          const found = index.indexedDuplicates(copy.join(" "), 0.92).map((match) => match.memoryId);
          expect(found).toEqual(exact);
        },
      ),
      { numRuns: 200, seed: 42 },
    );
  });
});

describe("lshShapeFor", () => {
  it.each([0.92, 0.95, 0.8, 0.6, 0.5])("keeps the miss probability at %d below 1e-4", (threshold) => {
    expect(candidateProbability(threshold, lshShapeFor(threshold))).toBeGreaterThan(1 - 1e-4);
  });
});
