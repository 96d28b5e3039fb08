import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { jsonDepth } from "./decode-body.js";

/** The definition, a character at a time: inside a string a backslash skips the next character. */
const depthByCharacters = (text: string, stopAbove: number): number => {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === 92) at++;
      else if (code === 34) inString = false;
    } else if (code === 34) inString = true;
    else if (code === 123 || code === 91) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (code === 125 || code === 93) depth--;
  }
  return deepest;
};

describe("jsonDepth", () => {
  it("counts what a reading one character at a time counts, escapes and unterminated strings included", () => {
    const piece = fc.constantFrom("{", "}", "[", "]", '"', "\\", '\\"', "\\\\", "a", ",", ":", " ", "é");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 0, max: 6 }), (pieces, stopAbove) => {
        const text = pieces.join("");
        expect(jsonDepth(text, stopAbove)).toBe(depthByCharacters(text, stopAbove));
      }),
      { numRuns: 5_000 },
    );
  });

  it("skips brackets inside strings, escaped quotes and all", () => {
    expect(jsonDepth(JSON.stringify({ a: ['x"[[[{{', "\\", { b: "]]]" }] }), 64)).toBe(3);
    expect(jsonDepth(`{"a": "unterminated [[[`, 64)).toBe(1);
  });
});
