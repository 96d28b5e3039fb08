import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../model/layer.js";
import { makeIndexCache } from "./index-cache.js";

const evidence = (text: string): EvidenceSource[] => [{ index: 0, origin: "source", text }];

describe("the source-index cache", () => {
  it("keeps an evidence set from its second sight on, and drops it once it is the least recently used", () => {
    const indexFor = makeIndexCache({ entries: 2, characters: 1_000 });
    const once = indexFor(evidence("The bridge opened in 1932."));
    // Seen once: indexed and not kept. Seen twice: indexed again and kept.
    const kept = indexFor(evidence("The bridge opened in 1932."));
    expect(kept).not.toBe(once);
    expect(indexFor(evidence("The bridge opened in 1932."))).toBe(kept);
    for (const text of ["The tunnel opened in 1950.", "The ferry stopped in 1960."]) {
      indexFor(evidence(text));
      indexFor(evidence(text));
    }
    // Two entries: the first set was the least recently used and is gone; it was seen before, so it is kept
    // again at once.
    const again = indexFor(evidence("The bridge opened in 1932."));
    expect(again).not.toBe(kept);
    expect(indexFor(evidence("The bridge opened in 1932."))).toBe(again);
  });

  it("keeps a large evidence set the first time it is seen", () => {
    const indexFor = makeIndexCache(
      { entries: 4, characters: 10_000 },
      { remember: 16, admitAtOnceChars: 500 },
    );
    const large = evidence("The bridge opened in 1932. ".repeat(20));
    expect(indexFor(large)).toBe(indexFor(large));
    const small = evidence("The tunnel opened in 1950.");
    expect(indexFor(small)).not.toBe(indexFor(small));
  });

  it("keeps nothing distinct evidence brings once: each set is indexed and let go", () => {
    const indexFor = makeIndexCache({ entries: 8, characters: 10_000 });
    const first = Array.from({ length: 8 }, (_, i) => indexFor(evidence(`Figure ${i} rose.`)));
    // Nothing was kept, so nothing was evicted by these sets: the ones seen twice are kept from now on.
    const second = Array.from({ length: 8 }, (_, i) => indexFor(evidence(`Figure ${i} rose.`)));
    second.forEach((index, i) => {
      expect(index).not.toBe(first[i]);
      expect(indexFor(evidence(`Figure ${i} rose.`))).toBe(index);
    });
  });

  it("keeps no evidence set larger than its character budget, and the budget bounds the total", () => {
    const indexFor = makeIndexCache({ entries: 10, characters: 60 }, { remember: 16, admitAtOnceChars: 1 });
    const large = evidence("x".repeat(61));
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
});
