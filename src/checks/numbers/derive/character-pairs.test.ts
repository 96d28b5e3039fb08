import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayHold, pairMasksOf, wordPairBits } from "./character-pairs.js";

/** Places written one after the other, each ended by "\u0000", with their starts (and the end as one more). */
const joinedPlaces = (places: readonly string[]) => {
  const starts = new Int32Array(places.length + 1);
  let at = 0;
  places.forEach((place, index) => {
    starts[index] = at;
    at += place.length + 1;
  });
  starts[places.length] = at;
  return { joined: places.join("\u0000"), starts };
};

describe("character pair masks", () => {
  it("never rule out a place that holds the word", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 40 }), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.nat(),
        fc.nat(),
        (places, which, from, length) => {
          const { joined, starts } = joinedPlaces(places);
          const masks = pairMasksOf(joined, starts, 1);
          // A word cut from one of the places: that place holds it.
          const place = which % places.length;
          const text = places[place] as string;
          const start = text.length === 0 ? 0 : from % text.length;
          const word = text.slice(start, start + (length % 12));
          expect(mayHold(masks, place, wordPairBits(word))).toBe(true);
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("rule out a place that lacks one of the word's pairs, and keep a place's first and last pairs", () => {
    const { joined, starts } = joinedPlaces(["net sales", "cost of revenue", "ab"]);
    const masks = pairMasksOf(joined, starts, 1);
    expect(mayHold(masks, 0, wordPairBits("sales"))).toBe(true);
    expect(mayHold(masks, 0, wordPairBits("revenue"))).toBe(false);
    expect(mayHold(masks, 1, wordPairBits("revenue"))).toBe(true);
    expect(mayHold(masks, 1, wordPairBits("sales"))).toBe(false);
    // "ab" is both the first and the last pair of its place.
    expect(mayHold(masks, 2, wordPairBits("ab"))).toBe(true);
    expect(mayHold(masks, 2, wordPairBits("ba"))).toBe(false);
  });
});
