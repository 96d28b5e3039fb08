import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { stopwordStems, tokenize } from "../../text/tokens.js";
import { pairShareOf } from "./pair-share.js";
import type { Passage } from "./source-index.js";
import { passagesOf } from "./testing/passages-of.js";

/** The share the slow way: each pair of the claim looked for among every passage's neighbouring content stems. */
const expectedShare = (claim: string, passages: readonly Passage[]): number => {
  const skip = stopwordStems();
  const contentStems = (stems: readonly string[]) => stems.filter((stem) => !skip.has(stem));
  const neighbours = (stems: readonly string[]) => stems.slice(1).map((stem, at) => `${stems[at]} ${stem}`);
  const claimPairs = neighbours(contentStems(tokenize(claim).map((token) => token.stem)));
  if (claimPairs.length === 0) return 1;
  const held = new Set(passages.flatMap((passage) => neighbours(contentStems(passage.stemSequence))));
  return claimPairs.filter((pair) => held.has(pair)).length / claimPairs.length;
};

const share = (claim: string, passages: readonly Passage[]) => pairShareOf(tokenize(claim), passages);

describe("pairShareOf", () => {
  it("counts the claim's neighbouring content words that stand as neighbours in a passage", () => {
    const passages = passagesOf("Quarterly revenue rose sharply in Lisbon. Costs fell.");
    // "quarterly revenue" and "revenue rose" are there; "rose slowly" is not.
    expect(share("Quarterly revenue rose slowly.", passages)).toBeCloseTo(2 / 3, 12);
    expect(share("Quarterly revenue rose sharply.", passages)).toBe(1);
  });

  it("does not count two words a passage holds apart, or holds only across two passages", () => {
    const passages = passagesOf("Revenue in Lisbon rose. Costs fell.", "Margins widened.");
    expect(share("Revenue rose.", passages)).toBe(0);
    expect(share("Rose costs.", passages)).toBe(0);
    expect(share("Fell margins.", passages)).toBe(0);
  });

  it("reads stopwords between two words as no gap, in the claim and in the passages", () => {
    const passages = passagesOf("The revenue of the company rose.");
    expect(share("Revenue company rose.", passages)).toBe(1);
    expect(share("The company's revenue.", passagesOf("Company revenue grew."))).toBe(1);
  });

  it("counts a pair the claim writes twice twice", () => {
    const passages = passagesOf("Revenue rose in May.");
    // Pairs: revenue-rose, rose-revenue, revenue-rose: two of three held.
    expect(share("Revenue rose, revenue rose.", passages)).toBeCloseTo(2 / 3, 12);
  });

  it("is 1 for a claim with fewer than two content words, and 0 against no passage", () => {
    expect(share("Yes.", passagesOf("No."))).toBe(1);
    expect(share("Revenue rose.", [])).toBe(0);
  });

  it("gives the share the slow way does over made-up passages and claims", () => {
    const words = ["revenue", "rose", "fell", "costs", "the", "of", "in", "Lisbon", "margins", "and", "grew"];
    const sentence = fc
      .array(fc.constantFrom(...words), { minLength: 1, maxLength: 9 })
      .map((picked) => `${picked.join(" ")}.`);
    fc.assert(
      fc.property(
        fc.array(fc.array(sentence, { minLength: 1, maxLength: 4 }), { minLength: 0, maxLength: 4 }),
        fc.array(fc.constantFrom(...words), { minLength: 0, maxLength: 10 }),
        (sources, claimWords) => {
          const passages = passagesOf(...sources.map((sentences) => sentences.join(" ")));
          const claim = `${claimWords.join(" ")}.`;
          expect(share(claim, passages)).toBeCloseTo(expectedShare(claim, passages), 12);
        },
      ),
      { numRuns: 400 },
    );
  });
});
