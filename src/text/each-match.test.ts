import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { eachMatch } from "./each-match.js";

/** What `eachMatch` visits, as [index, text, groups...] per match. */
const visited = (pattern: RegExp, text: string, stopAfter = Number.POSITIVE_INFINITY): string[][] => {
  const seen: string[][] = [];
  eachMatch(pattern, text, (match) => {
    seen.push([String(match.index), ...match.map((part) => part ?? "")]);
    return seen.length < stopAfter;
  });
  return seen;
};

const viaMatchAll = (pattern: RegExp, text: string): string[][] =>
  [...text.matchAll(pattern)].map((match) => [String(match.index), ...match.map((part) => part ?? "")]);

// Patterns with empty matches, optional groups, word boundaries, look-behind and Unicode classes.
const patterns = [
  /\d+/g,
  /\d*/g,
  /(?:)/g,
  /(?:)/gu,
  /\b(a)?b*\b/g,
  /(?<=x)y?/g,
  /[\p{L}]+|\p{N}?/gu,
  /a|b|/gi,
];
const alphabet = ["a", "b", "x", "y", "1", "2", " ", "-", "é", "😀", "\u0301"];

describe("each match of a global expression", () => {
  it("visits the matches matchAll gives, in order, empty and Unicode ones included", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...patterns),
        fc.array(fc.constantFrom(...alphabet), { maxLength: 30 }).map((chars) => chars.join("")),
        (pattern, text) => {
          expect(visited(pattern, text)).toEqual(viaMatchAll(pattern, text));
          expect(pattern.lastIndex).toBe(0);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("moves past an empty match by a whole code point when the expression reads code points", () => {
    // "😀" is two UTF-16 units: a Unicode expression never matches between them, a plain one does.
    // At most ten visits: a loop that does not move on fails here instead of running for ever.
    expect(visited(/(?:)/gu, "😀", 10).map(([index]) => index)).toEqual(["0", "2"]);
    expect(visited(/(?:)/g, "😀", 10).map(([index]) => index)).toEqual(["0", "1", "2"]);
  });

  it("stops when the visitor returns false, and leaves the expression at its start", () => {
    const pattern = /\d/g;
    expect(visited(pattern, "1 2 3 4", 2).map(([index]) => index)).toEqual(["0", "2"]);
    expect(pattern.lastIndex).toBe(0);
  });

  it("is not moved by the same expression run inside the visitor", () => {
    const pattern = /\d/g;
    const outer: number[] = [];
    eachMatch(pattern, "1a2b3", (match) => {
      outer.push(match.index);
      // An inner run over another text leaves the expression's lastIndex at 0 when it ends.
      eachMatch(pattern, "99", () => true);
      return outer.length < 10;
    });
    expect(outer).toEqual([0, 2, 4]);
  });

  it("refuses an expression without the global flag, as matchAll does", () => {
    expect(() => eachMatch(/\d/, "1", () => true)).toThrow(TypeError);
    expect(() => "1".matchAll(/\d/)).toThrow(TypeError);
  });
});
