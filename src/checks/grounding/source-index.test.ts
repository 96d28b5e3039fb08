import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../model/layer.js";
import { stem } from "../../text/tokens.js";
import { buildSourceIndex, type SourceIndex } from "./source-index.js";

const sourcesOf = (...texts: string[]): EvidenceSource[] =>
  texts.map((text, index) => ({ index, origin: "source", text }));

/** The postings read the slow way off the passages' own stems: each stem's passages, ascending, with counts. */
const expectedPostings = (index: SourceIndex) => {
  const postings = new Map<string, { ids: number[]; frequencies: number[] }>();
  for (const passage of index.passages)
    for (const stem of passage.stemSequence) {
      const posting = postings.get(stem) ?? { ids: [], frequencies: [] };
      postings.set(stem, posting);
      if (posting.ids.at(-1) === passage.id)
        posting.frequencies[posting.frequencies.length - 1] = (posting.frequencies.at(-1) ?? 0) + 1;
      else {
        posting.ids.push(passage.id);
        posting.frequencies.push(1);
      }
    }
  return postings;
};

const expectPostingsOfPassages = (index: SourceIndex) => {
  const expected = expectedPostings(index);
  // Every stem, in order of first appearance, and no other.
  expect([...index.postings.keys()]).toEqual([...expected.keys()]);
  for (const [stem, posting] of expected) {
    const actual = index.postings.get(stem);
    expect(actual && Array.from(actual.ids), stem).toEqual(posting.ids);
    expect(actual && Array.from(actual.frequencies), stem).toEqual(posting.frequencies);
    expect(index.stems.has(stem)).toBe(true);
  }
  expect(index.postings.get("zzzunseen")).toBeUndefined();
  expect(index.stems.has("zzzunseen")).toBe(false);
};

describe("buildSourceIndex postings", () => {
  // A small vocabulary, so stems repeat within a sentence, across sentences and across sources.
  const word = fc.constantFrom(
    "revenue",
    "revenues",
    "rose",
    "fell",
    "the",
    "profit",
    "2019",
    "12.5",
    "costs",
  );
  const sentence = fc.array(word, { minLength: 1, maxLength: 8 }).map((words) => `${words.join(" ")}.`);
  const source = fc.array(sentence, { maxLength: 6 }).map((sentences) => sentences.join(" "));

  it("lists each stem's passages in order with its count in each, for any sources", () => {
    fc.assert(
      fc.property(fc.array(source, { minLength: 1, maxLength: 4 }), (texts) => {
        const index = buildSourceIndex(sourcesOf(...texts));
        expectPostingsOfPassages(index);
      }),
      { numRuns: 500 },
    );
  });

  it("counts a stem written several times in one passage once per passage, with its frequency", () => {
    const index = buildSourceIndex(
      sourcesOf("Profit rose and profit rose again. Costs fell.", "Profit fell."),
    );
    const profit = index.postings.get(stem("profit"));
    expect(profit && Array.from(profit.ids)).toEqual([0, 2]);
    expect(profit && Array.from(profit.frequencies)).toEqual([2, 1]);
  });

  it("holds when the sources have more stems and entries than the first arrays hold", () => {
    // 3,000 distinct words over 800 sentences, each sentence also repeating a common word: past 1,024
    // stems and, at six stems a sentence, 4,800 entries, past 4,096.
    const sentences = Array.from(
      { length: 800 },
      (_, i) =>
        `Common ${Array.from({ length: 5 }, (_, j) => `w${((i * 5 + j) % 3_000).toString(36)}x`).join(" ")} common.`,
    );
    const index = buildSourceIndex(sourcesOf(sentences.join(" ")));
    const stems = [...index.postings.keys()];
    expect(stems.length).toBeGreaterThan(1_024);
    const entries = stems.reduce((count, stem) => count + (index.postings.get(stem)?.ids.length ?? 0), 0);
    expect(entries).toBeGreaterThan(4_096);
    expectPostingsOfPassages(index);
    const common = index.postings.get(stem("common"));
    expect(common?.ids.length).toBe(800);
    expect(common && Array.from(common.frequencies).every((count) => count === 2)).toBe(true);
  });

  it("keeps an index's postings when later indexes are built", () => {
    const first = buildSourceIndex(sourcesOf("Revenue rose. The profit fell.", "Costs rose."));
    for (let i = 0; i < 20; i++)
      buildSourceIndex(sourcesOf(`Other words number ${i}. Revenue fell twice, revenue fell.`));
    // The first index's postings are asked for only now: any read from arrays the later builds wrote differs.
    expectPostingsOfPassages(first);
  });

  it("holds across a build large enough that its arrays are released after it", () => {
    // 35,000 sentences of four distinct stems each: 140,000 entries, more than the arrays keep between builds.
    const sentences = Array.from(
      { length: 35_000 },
      (_, i) => `Word w${(i % 20_000).toString(36)}x v${(i % 7).toString(36)}y shared.`,
    );
    const large = buildSourceIndex(sourcesOf(sentences.join(" ")));
    const small = buildSourceIndex(sourcesOf("Profit rose. Profit fell twice, profit fell."));
    expect(large.postings.get(stem("shared"))?.ids.length).toBe(35_000);
    expectPostingsOfPassages(large);
    expectPostingsOfPassages(small);
  });
});
