import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../../model/layer.js";
import { prepareSources } from "./prepared-sources.js";
import { makeSourceReadings, makeSourcesCache } from "./source-cache.js";
import { readSource } from "./source-numbers.js";

const options = { maxNumbers: 5_000, maxRun: 6 };
const evidence = (text: string, index = 0): EvidenceSource[] => [{ index, origin: "source", text }];

describe("makeSourcesCache", () => {
  it("reuses the sources read for the same evidence, and only for the same evidence", () => {
    const read = makeSourcesCache({ capacity: 4, admission: { remember: 16, admitAtOnceChars: 1 } });
    const first = read(evidence("Revenue was $12.6 million."), options);
    expect(read(evidence(`Revenue was $12.6 ${"million."}`), options)).toBe(first);
    // Same length, other text; same text, other index; same text, other options.
    expect(read(evidence("Revenue was $12.7 million."), options)).not.toBe(first);
    expect(read(evidence("Revenue was $12.6 million.", 1), options)).not.toBe(first);
    expect(read(evidence("Revenue was $12.6 million."), { ...options, maxRun: 3 })).not.toBe(first);
    expect(read(evidence("Revenue was $12.6 million."), options)).toBe(first);
  });

  it("forgets the least recently used evidence beyond its capacity", () => {
    const read = makeSourcesCache({ capacity: 2, admission: { remember: 16, admitAtOnceChars: 1 } });
    const a = read(evidence("a 1"), options);
    const b = read(evidence("b 2"), options);
    expect(read(evidence("a 1"), options)).toBe(a);
    read(evidence("c 3"), options);
    expect(read(evidence("a 1"), options)).toBe(a);
    expect(read(evidence("b 2"), options)).not.toBe(b);
  });

  it("keeps what it read from the second time on, or at once when the evidence is large", () => {
    const read = makeSourcesCache({ capacity: 4, admission: { remember: 16, admitAtOnceChars: 200 } });
    const once = read(evidence("Revenue was $12.6 million."), options);
    const kept = read(evidence("Revenue was $12.6 million."), options);
    expect(kept).not.toBe(once);
    expect(read(evidence("Revenue was $12.6 million."), options)).toBe(kept);
    const large = evidence("Revenue was $12.6 million. ".repeat(10));
    expect(read(large, options)).toBe(read(large, options));
  });

  it("keeps no copy when its capacity is 0", () => {
    const read = makeSourcesCache({ capacity: 0 });
    expect(read(evidence("a 1"), options)).not.toBe(read(evidence("a 1"), options));
  });

  it("reads a set it does not hold from kept readings of its sources: the figures reading it afresh gives", () => {
    const documents = [
      "Revenue rose 14% to $2.5 billion in 2019.\n(in millions) | 2019 | 2018\nRevenue | 2,500 | 2,193\nCosts | (1,100) | 980",
      "The company employed 4,512 people, up by three hundred, and granted 320,000 PSUs.",
      "Year ended 30 June 2019 | |\nItem | Amount | Share\nSalaries | 1,000 | 40%\nRent | 300 | 12%",
    ];
    const setOf = (order: readonly number[]): EvidenceSource[] =>
      order.map((document, index) => ({ index, origin: "source", text: documents[document] as string }));
    const read = makeSourcesCache({ capacity: 4, admission: { remember: 16, admitAtOnceChars: 1_000_000 } });
    read(setOf([0, 1]), options);
    read(setOf([2]), options);
    // Each document seen twice now, the sets never the same: every later set is made of kept readings.
    read(setOf([1, 0]), options);
    read(setOf([2, 1]), options);
    read(setOf([0, 2]), options);
    const orders = [[2, 0, 1], [1, 2], [0], [1, 0, 2]];
    const pools = orders.map((order) => read(setOf(order), options).pool);
    for (const [at, order] of orders.entries())
      expect(pools[at]).toEqual(prepareSources(setOf(order), options).pool);
    // Ids run on from one source to the next, and each figure names its own source.
    const last = pools[3]?.numbers ?? [];
    expect(last.map((number) => number.id)).toEqual(last.map((_, at) => at));
    expect(new Set(last.map((number) => number.source))).toEqual(new Set([0, 1, 2]));
    // The figures of a document are its kept reading's, placed again: the same read numbers, not read anew.
    const salaries = (pool: (typeof pools)[number] | undefined) =>
      pool?.numbers.find((number) => number.number.text === "1,000")?.number;
    expect(salaries(pools[0])).toBeDefined();
    expect(salaries(pools[1])).toBe(salaries(pools[0]));
  });

  it("places a kept reading at any id and source, as reading the source there does", () => {
    const readOne = makeSourceReadings(
      { entries: 4, characters: 10_000 },
      { remember: 16, admitAtOnceChars: 1 },
    );
    const source: EvidenceSource = {
      index: 0,
      origin: "source",
      text: "Revenue | 2,500 | 2,193\nCosts | 1,100 | 980",
    };
    const kept = readOne(source, 0, options);
    expect(readOne(source, 0, options)).toBe(kept);
    const placed = readOne({ ...source, index: 3 }, 7, options);
    expect(placed).toEqual(readSource({ ...source, index: 3 }, 7, options));
    expect(placed.numbers.map((number) => number.id)).toEqual([7, 8, 9, 10]);
    // The same first id, another source: every figure names its own source.
    expect(readOne({ ...source, index: 2 }, 0, options)).toEqual(
      readSource({ ...source, index: 2 }, 0, options),
    );
    // Other reading options read the text again.
    expect(readOne(source, 0, { ...options, decimalSeparator: "," })).toEqual(
      readSource(source, 0, { ...options, decimalSeparator: "," }),
    );
    const dated: EvidenceSource = { index: 0, origin: "source", text: "Units sold | 2019 | 1,989" };
    readOne(dated, 0, options);
    expect(readOne(dated, 0, { ...options, yearsAreValues: true })).toEqual(
      readSource(dated, 0, { ...options, yearsAreValues: true }),
    );
    expect(readSource(dated, 0, { ...options, yearsAreValues: true })).not.toEqual(
      readSource(dated, 0, options),
    );
  });

  it("counts the sets it answered, the sets too large to keep, and the sources it did not read again", () => {
    const read = makeSourcesCache({ capacity: 1, admission: { remember: 16, admitAtOnceChars: 1 } });
    const pair = (a: string, b: string): EvidenceSource[] => [...evidence(a), ...evidence(b, 1)];
    read(pair("Revenue was $12.6 million.", "Costs were $3.1 million."), options);
    read(pair("Revenue was $12.6 million.", "Costs were $3.1 million."), options); // a hit
    read(pair("Revenue was $12.6 million.", "Staff grew to 210."), options); // evicts the first set
    read(evidence("x 1 ".repeat(300_000)), options); // 1.2 million characters: never kept whole
    const [sets, sources] = read.stats();
    expect(sets).toEqual({
      cache: "numbers.evidence-sets",
      lookups: 3,
      hits: 1,
      bypassed: 1,
      evictions: 1,
      entries: 1,
      characters: 26 + 18,
      maxEntries: 1,
    });
    // Sources: two read, then one of them again among a new one, then the large one on its own.
    expect(sources).toMatchObject({ cache: "numbers.sources", lookups: 4, hits: 1, bypassed: 1 });
    expect(makeSourcesCache({ capacity: 0 }).stats()).toEqual([
      expect.objectContaining({ cache: "numbers.evidence-sets", maxEntries: 0 }),
    ]);
  });
});
