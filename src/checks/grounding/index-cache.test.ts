import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../model/layer.js";
import { makeIndexCache } from "./index-cache.js";
import { buildSourceIndex, type SourceIndex } from "./source-index.js";

const evidence = (text: string): EvidenceSource[] => [{ index: 0, origin: "source", text }];

describe("the source-index cache", () => {
  it("keeps an evidence set from its second sight on, and drops it once it is the least recently used", () => {
    const indexFor = makeIndexCache({ entries: 2, characters: 1_000 });
    const bridge = "The bridge opened in 1932.";
    const once = indexFor(evidence(bridge));
    indexFor(evidence("A road opened."));
    // Seen once: indexed and not kept. Seen twice: indexed again and kept.
    const kept = indexFor(evidence(bridge));
    expect(kept).not.toBe(once);
    indexFor(evidence("A road opened."));
    expect(indexFor(evidence(bridge))).toBe(kept);
    // Two more sets seen twice each fill the two entries: the bridge was the least recently used and is gone.
    for (const text of ["The tunnel opened in 1950.", "The ferry stopped in 1960."]) {
      indexFor(evidence(text));
      indexFor(evidence("A road opened."));
      indexFor(evidence(text));
    }
    // It was seen before, so it is kept again at once.
    const again = indexFor(evidence(bridge));
    expect(again).not.toBe(kept);
    indexFor(evidence("A road opened."));
    expect(indexFor(evidence(bridge))).toBe(again);
  });

  it("answers the evidence it indexed last from that index, kept or not (a request grounds its text again)", () => {
    const indexFor = makeIndexCache({ entries: 4, characters: 10_000 });
    const once = indexFor(evidence("The bridge opened in 1932."));
    expect(indexFor(evidence("The bridge opened in 1932."))).toBe(once);
    indexFor(evidence("The tunnel opened in 1950."));
    // No longer the last, and never kept: indexed again (and kept now: this is its second sight).
    const kept = indexFor(evidence("The bridge opened in 1932."));
    expect(kept).not.toBe(once);
    indexFor(evidence("The tunnel opened in 1950."));
    expect(indexFor(evidence("The bridge opened in 1932."))).toBe(kept);
  });

  it("keeps a large evidence set the first time it is seen", () => {
    const indexFor = makeIndexCache(
      { entries: 4, characters: 10_000 },
      { remember: 16, admitAtOnceChars: 500 },
    );
    const large = evidence("The bridge opened in 1932. ".repeat(20));
    const small = evidence("The tunnel opened in 1950.");
    const first = indexFor(large);
    const once = indexFor(small);
    expect(indexFor(large)).toBe(first);
    expect(indexFor(small)).not.toBe(once);
  });

  it("keeps nothing distinct evidence brings once: each set is indexed and let go", () => {
    const indexFor = makeIndexCache({ entries: 8, characters: 10_000 });
    const first = Array.from({ length: 8 }, (_, i) => indexFor(evidence(`Figure ${i} rose.`)));
    // Nothing was kept, so nothing was evicted by these sets: the ones seen twice are kept from now on.
    const second = Array.from({ length: 8 }, (_, i) => indexFor(evidence(`Figure ${i} rose.`)));
    for (const [i, index] of second.entries()) expect(index).not.toBe(first[i]);
    for (const [i, index] of second.entries()) expect(indexFor(evidence(`Figure ${i} rose.`))).toBe(index);
  });

  it("keeps no evidence set larger than its character budget, and the budget bounds the total", () => {
    const indexFor = makeIndexCache({ entries: 10, characters: 60 }, { remember: 16, admitAtOnceChars: 1 });
    const large = evidence("x".repeat(61));
    // Not even held as the last set indexed: asked again at once, it is indexed again.
    expect(indexFor(large)).not.toBe(indexFor(large));
    const a = indexFor(evidence("a".repeat(40)));
    expect(indexFor(evidence("a".repeat(40)))).toBe(a);
    indexFor(evidence("b".repeat(40)));
    // 80 characters do not fit in 60: the older set was dropped.
    expect(indexFor(evidence("a".repeat(40)))).not.toBe(a);
  });

  it("with no room, indexes every time", () => {
    const indexFor = makeIndexCache({ entries: 0, characters: 1_000 });
    expect(indexFor(evidence("The bridge opened in 1932."))).not.toBe(
      indexFor(evidence("The bridge opened in 1932.")),
    );
  });

  it("tells apart kept sets whose fingerprints collide, and sets split differently", () => {
    const indexFor = makeIndexCache({ entries: 4, characters: 100_000 });
    // 10,027 characters are fingerprinted every 9th, besides their first and last 64: these two differ only at
    // the 5,000th, unread.
    const long = `The bridge opened in 1932. ${"a".repeat(10_000)}`;
    const twin = `${long.slice(0, 5_000)}x${long.slice(5_001)}`;
    indexFor(evidence(long));
    indexFor(evidence("A road opened."));
    const kept = indexFor(evidence(long));
    indexFor(evidence("A road opened."));
    expect(indexFor(evidence(long))).toBe(kept);
    // The twin is seen as seen before (the doorkeeper admits it) but is answered its own index, never the other's.
    const other = indexFor(evidence(twin));
    expect(other).not.toBe(kept);
    indexFor(evidence("A road opened."));
    expect(indexFor(evidence(twin))).toBe(other);
    // Two sources are not the one source their texts joined would make.
    const joined = indexFor([{ index: 0, origin: "source", text: "a\u0000b" }]);
    indexFor(evidence("A road opened."));
    const split = indexFor([
      { index: 0, origin: "source", text: "a" },
      { index: 1, origin: "source", text: "b" },
    ]);
    expect(split).not.toBe(joined);
  });

  it("builds a set it does not hold from kept readings of its sources: the index reading them afresh gives", () => {
    const documents = [
      "The bridge opened in 1932. It carried 12,000 cars a day by 1950.",
      "Revenue rose 14% to $2.5 billion.\nCosts fell to $1.1 billion | 2019 | 2018",
      "The tunnel was never finished. Work stopped in 1941, and the company went bankrupt.",
      "Ships docked at the north pier. The ferry stopped running in 1960!",
    ];
    const setOf = (order: readonly number[]): EvidenceSource[] =>
      order.map((document, index) => ({ index, origin: "source", text: documents[document] as string }));
    const indexFor = makeIndexCache({ entries: 4, characters: 10_000 });
    // Every document seen twice, in sets that never repeat: each set is new, each source is kept.
    indexFor(setOf([0, 1]));
    indexFor(setOf([2, 3]));
    const fromKept = [indexFor(setOf([1, 0])), indexFor(setOf([3, 2])), indexFor(setOf([2, 0, 3, 1]))];
    const another = indexFor(setOf([1, 3, 0]));
    expect(describeIndex(another)).toEqual(describeIndex(buildSourceIndex(setOf([1, 3, 0]))));
    for (const [at, order] of [
      [1, 0],
      [3, 2],
      [2, 0, 3, 1],
    ].entries())
      expect(describeIndex(fromKept[at] as SourceIndex)).toEqual(
        describeIndex(buildSourceIndex(setOf(order))),
      );
    // The sentences of a document were read once more at most: the two sets share its stems, not a copy.
    const first = fromKept[2]?.passages.find((passage) => passage.text.startsWith("Ships docked"));
    const second = another.passages.find((passage) => passage.text.startsWith("Ships docked"));
    expect(first?.stemSequence).toBeDefined();
    expect(second?.stemSequence).toBe(first?.stemSequence);
    expect(second?.source).toBe(1);
    expect(first?.source).toBe(2);
  });
  it("counts the sets it answered and the sources it did not read again, apart", () => {
    const documents = [
      "The bridge opened in 1932.",
      "The tunnel closed in 1941.",
      "The ferry ran until 1960.",
    ];
    const setOf = (order: readonly number[]): EvidenceSource[] =>
      order.map((document, index) => ({ index, origin: "source", text: documents[document] as string }));
    const indexFor = makeIndexCache(
      { entries: 4, characters: 10_000 },
      { remember: 16, admitAtOnceChars: 1 },
    );
    indexFor(setOf([0, 1])); // a new set: its two sources read and kept
    indexFor(setOf([0, 1])); // the same set again, answered by the last one indexed
    indexFor(setOf([2, 1])); // a new set: one source kept, one read
    indexFor(setOf([0, 1])); // answered from the kept sets
    const [sets, sources] = indexFor.stats();
    expect(sets).toEqual({
      cache: "grounding.evidence-sets",
      lookups: 4,
      hits: 2,
      bypassed: 0,
      evictions: 0,
      entries: 2,
      characters: 2 * (26 + 1 + 26) - 1,
      maxEntries: 4,
      maxCharacters: 10_000,
    });
    expect(sources).toMatchObject({ cache: "grounding.sources", lookups: 4, hits: 1, entries: 3 });
    // A set larger than the whole budget is never looked up.
    const small = makeIndexCache({ entries: 4, characters: 20 });
    small(setOf([0]));
    expect(small.stats()[0]).toMatchObject({ lookups: 0, bypassed: 1 });
  });
});

/** What an index says: its passages, each stem's posting, and BM25's lengths. */
const describeIndex = (index: SourceIndex) => ({
  passages: index.passages.map(({ id, source, start, end, text, stemSequence }) => ({
    id,
    source,
    start,
    end,
    text,
    stemSequence: [...stemSequence],
  })),
  postings: [...index.postings.keys()].map((stem) => {
    const posting = index.postings.get(stem);
    return [stem, Array.from(posting?.ids ?? []), Array.from(posting?.frequencies ?? [])];
  }),
  lengthNorms: Array.from(index.lengthNorms),
  averageLength: index.averageLength,
});
