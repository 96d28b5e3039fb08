import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../../model/layer.js";
import { makeSourcesCache } from "./source-cache.js";

const options = { maxNumbers: 5_000, maxRun: 6 };
const evidence = (text: string, index = 0): EvidenceSource[] => [{ index, origin: "source", text }];

describe("makeSourcesCache", () => {
  it("reuses the sources read for the same evidence, and only for the same evidence", () => {
    const read = makeSourcesCache(4, { remember: 16, admitAtOnceChars: 1 });
    const first = read(evidence("Revenue was $12.6 million."), options);
    expect(read(evidence(`Revenue was $12.6 ${"million."}`), options)).toBe(first);
    // Same length, other text; same text, other index; same text, other options.
    expect(read(evidence("Revenue was $12.7 million."), options)).not.toBe(first);
    expect(read(evidence("Revenue was $12.6 million.", 1), options)).not.toBe(first);
    expect(read(evidence("Revenue was $12.6 million."), { ...options, maxRun: 3 })).not.toBe(first);
    expect(read(evidence("Revenue was $12.6 million."), options)).toBe(first);
  });

  it("forgets the least recently used evidence beyond its capacity", () => {
    const read = makeSourcesCache(2, { remember: 16, admitAtOnceChars: 1 });
    const a = read(evidence("a 1"), options);
    const b = read(evidence("b 2"), options);
    expect(read(evidence("a 1"), options)).toBe(a);
    read(evidence("c 3"), options);
    expect(read(evidence("a 1"), options)).toBe(a);
    expect(read(evidence("b 2"), options)).not.toBe(b);
  });

  it("keeps what it read from the second time on, or at once when the evidence is large", () => {
    const read = makeSourcesCache(4, { remember: 16, admitAtOnceChars: 200 });
    const once = read(evidence("Revenue was $12.6 million."), options);
    const kept = read(evidence("Revenue was $12.6 million."), options);
    expect(kept).not.toBe(once);
    expect(read(evidence("Revenue was $12.6 million."), options)).toBe(kept);
    const large = evidence("Revenue was $12.6 million. ".repeat(10));
    expect(read(large, options)).toBe(read(large, options));
  });

  it("keeps no copy when its capacity is 0", () => {
    const read = makeSourcesCache(0);
    expect(read(evidence("a 1"), options)).not.toBe(read(evidence("a 1"), options));
  });
});
