import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../model/layer.js";
import { makeIndexCache } from "./index-cache.js";

const evidence = (text: string): EvidenceSource[] => [{ index: 0, origin: "source", text }];

describe("the source-index cache", () => {
  it("returns the same index for the same evidence, and a new one once it was evicted", () => {
    const indexFor = makeIndexCache({ entries: 2, characters: 1_000 });
    const first = indexFor(evidence("The bridge opened in 1932."));
    expect(indexFor(evidence("The bridge opened in 1932."))).toBe(first);
    indexFor(evidence("The tunnel opened in 1950."));
    indexFor(evidence("The ferry stopped in 1960."));
    // Two entries: the first set was the least recently used and is gone.
    expect(indexFor(evidence("The bridge opened in 1932."))).not.toBe(first);
  });

  it("keeps no evidence set larger than its character budget, and the budget bounds the total", () => {
    const indexFor = makeIndexCache({ entries: 10, characters: 60 });
    const large = evidence("x".repeat(61));
    expect(indexFor(large)).not.toBe(indexFor(large));
    const a = indexFor(evidence("a".repeat(40)));
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
