import { describe, expect, it } from "vitest";
import { readJsonText } from "./json-text.js";

describe("readJsonText", () => {
  it("reads a JSON text to its value", () => {
    expect(readJsonText('{"text": "a", "sources": ["b", "é"]}', 64)).toEqual({
      kind: "value",
      value: { text: "a", sources: ["b", "é"] },
    });
  });

  it("refuses a text nested past the depth, counted before parsing, at the depth's edge exactly", () => {
    expect(readJsonText(`${"[".repeat(64)}${"]".repeat(64)}`, 64).kind).toBe("value");
    expect(readJsonText(`${"[".repeat(65)}${"]".repeat(65)}`, 64)).toEqual({ kind: "too-deep" });
    // Unbalanced past the depth: refused for its depth before the parser would call it malformed.
    expect(readJsonText("[".repeat(100_000), 64)).toEqual({ kind: "too-deep" });
  });

  it("calls a text that is not JSON malformed", () => {
    for (const text of ["", "{", '{"a": 1,}', "nul", '"\u0001"'])
      expect(readJsonText(text, 64)).toEqual({ kind: "malformed" });
  });

  it("names where a NUL or a lone surrogate sits, in a string or a key", () => {
    expect(readJsonText('{"sources": ["fine", "bad \\u0000"]}', 64)).toEqual({
      kind: "unreadable",
      path: "sources[1]",
      reason: "contains a NUL character",
    });
    expect(readJsonText('{"text": "\\ud800"}', 64)).toMatchObject({ kind: "unreadable", path: "text" });
    expect(readJsonText('{"a\\u0000": "b"}', 64)).toMatchObject({ kind: "unreadable", path: "" });
    // An escaped backslash before "u" is no escape of a character: the text is read.
    expect(readJsonText('{"text": "\\\\u0000"}', 64)).toEqual({ kind: "value", value: { text: "\\u0000" } });
  });
});
