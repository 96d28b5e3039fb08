import { describe, expect, it } from "vitest";
import { isEndPunctuation, isSpaceOrBreak, isSpaceOrTab, isWhiteSpace } from "./char-classes.js";

/** Every UTF-16 code unit, lone surrogates included. */
const everyCode = Array.from({ length: 0x10000 }, (_, code) => code);

describe("character classes by code", () => {
  it.each([
    ["isEndPunctuation", isEndPunctuation, /^[.!?…]$/],
    ["isSpaceOrTab", isSpaceOrTab, /^[ \t]$/],
    ["isSpaceOrBreak", isSpaceOrBreak, /^[ \t\r\n]$/],
    ["isWhiteSpace", isWhiteSpace, /^\s$/],
  ] as const)("%s answers as its expression does for every code unit", (_, byCode, expression) => {
    const differing = everyCode.filter((code) => byCode(code) !== expression.test(String.fromCharCode(code)));
    expect(differing).toEqual([]);
    // Each class holds some character: a test of a class that holds none could not fail.
    expect(everyCode.some(byCode)).toBe(true);
  });

  it("is false past the end of a text, where charCodeAt gives NaN", () => {
    for (const byCode of [isEndPunctuation, isSpaceOrTab, isSpaceOrBreak, isWhiteSpace])
      expect(byCode("".charCodeAt(0))).toBe(false);
  });
});
