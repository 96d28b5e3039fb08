import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rankSources } from "./operands.js";
import type { SourceNumber } from "./source-number.js";

/** A source number with only what ranking reads: its table row's label, or its line of prose. */
const figure = (
  id: number,
  place: { readonly label?: string | undefined; readonly line: string },
): SourceNumber =>
  ({
    id,
    lineText: place.line,
    table: place.label === undefined ? undefined : { label: place.label },
  }) as unknown as SourceNumber;

/** The ranking as a definition: each figure's count of the words its place holds, most first, ties in order. */
const byDefinition = (numbers: readonly SourceNumber[], words: readonly string[]): number[] =>
  numbers
    .map((number) => {
      const where = number.table ? number.table.label : number.lineText;
      return { id: number.id, score: words.filter((word) => where.includes(word)).length };
    })
    .sort((a, b) => b.score - a.score)
    .map(({ id }) => id);

describe("rankSources", () => {
  it("puts the figures whose row or line shares most words with the claim first, then keeps document order", () => {
    const numbers = [
      figure(0, { label: "cost of sales", line: "cost of sales | 1 | 2" }),
      figure(1, { line: "revenue from net sales rose to 5 in the year" }),
      figure(2, { label: "net sales", line: "net sales | 3 | 4" }),
      figure(3, { label: "net sales", line: "net sales | 3 | 4" }),
      figure(4, { label: "", line: " | 7" }),
    ];
    expect(rankSources(numbers, ["net", "sales"]).map((number) => number.id)).toEqual([1, 2, 3, 0, 4]);
    // A word counts once per place however often the place holds it, and inside longer words too.
    expect(rankSources(numbers, ["sale", "cost"]).map((number) => number.id)).toEqual([0, 1, 2, 3, 4]);
    expect(rankSources(numbers, []).map((number) => number.id)).toEqual([0, 1, 2, 3, 4]);
  });

  // Places and words from a few letters, so that words often fall inside places, at their ends, and twice.
  const letters = fc.constantFrom("a", "b", "n", "e", "t", " ", "|", "\u0000");
  const text = fc.array(letters, { maxLength: 12 }).map((chars) => chars.join(""));
  const word = fc
    .array(fc.constantFrom("a", "b", "n", "e", "t"), { maxLength: 3 })
    .map((chars) => chars.join(""));
  const place = fc.record({ label: fc.option(text, { nil: undefined }), line: text });
  it("ranks as counting each word in each figure's place does, for any places and words", () => {
    fc.assert(
      fc.property(fc.array(place, { maxLength: 30 }), fc.array(word, { maxLength: 6 }), (places, words) => {
        // Figures of one place often follow each other, as the cells of one row do.
        const numbers = places.flatMap((at, id) => [figure(2 * id, at), figure(2 * id + 1, at)]);
        expect(rankSources(numbers, words).map((number) => number.id)).toEqual(byDefinition(numbers, words));
      }),
      { numRuns: 2000, seed: 20261126 },
    );
  });
});
