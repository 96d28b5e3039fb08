import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { declaredScales, readScale } from "./scale-words.js";

describe("declaredScales", () => {
  it.each([
    ["(in millions)", [1e6]],
    ["Amounts in US$ millions", [1e6]],
    ["in thousands of euros", [1e3]],
    ["Revenue (€m)", [1e6]],
    ["$'000", [1e3]],
    ["USD bn", [1e9]],
    ["NT$ 000s", [1e3]],
    ["figures in 000s and billions )", [1e3, 1e9]],
    ["( Millions )", [1e6]],
    ["5 millions )", [1e6]],
    ["revenue of $638.8 million in 2023", []],
    ["Revenue rose to 5 million.", []],
    ["within millions", []],
    ["contents: 12 thousand", []],
  ])("%j declares %j", (text, scales) => {
    expect(declaredScales(text)).toEqual(scales);
  });

  it("reads a text whose lower-casing changes its length with the whole-text patterns", () => {
    expect(declaredScales("İstanbul office (in millions)")).toEqual([1e6]);
    expect(declaredScales("İstanbul office, $5 million")).toEqual([]);
  });
});

describe("declaredScales, place by place", () => {
  // A text whose lower-casing changes its length ("İ" becomes two characters) is read by the whole-text
  // patterns alone; any other is read at the places a declaration may start. Both readings must agree: the
  // same text after "İ" and a line break (a word boundary, as the start of the text is) declares the same.
  const piece = fc.constantFrom(
    "in",
    "In",
    " ",
    "  ",
    "(",
    ")",
    "$",
    "€",
    "US$",
    "NT$",
    "nt",
    "NT",
    "want",
    "usd",
    "USD",
    "eur",
    "neuron",
    "gbp",
    "'",
    "’",
    "000",
    "000s",
    "1,000",
    "5",
    "thousand",
    "thousands",
    "Millions",
    "million",
    "mn",
    "m",
    "bn",
    "b",
    "billion",
    "of",
    "euros",
    "x",
    "_",
    "-",
    "\n",
  );
  it("finds what the whole-text patterns find, on any text of their pieces", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14, size: "max" }), (pieces) => {
        const text = pieces.join("");
        expect(declaredScales(text)).toEqual(declaredScales(`İ\n${text}`));
      }),
      { numRuns: 4000, seed: 20261126 },
    );
  });
});

describe("readScale", () => {
  it("reads a scale after an optional space, and nothing else", () => {
    expect(readScale(" million in 2019")).toEqual({ multiplier: 1e6, length: 8 });
    expect(readScale("\u00a0bn")).toEqual({ multiplier: 1e9, length: 3 });
    expect(readScale(" of the")).toBeUndefined();
    expect(readScale("  million")).toBeUndefined();
  });
});
