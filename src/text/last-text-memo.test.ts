import { describe, expect, it } from "vitest";
import { lastTextMemo } from "./last-text-memo.js";

describe("lastTextMemo", () => {
  it("computes again only when the text changes, and answers what the text's own computation would", () => {
    const asked: string[] = [];
    const length = lastTextMemo((text) => {
      asked.push(text);
      return text.length;
    });
    expect(["ab", "ab", "abc", "abc", "ab"].map(length)).toEqual([2, 2, 3, 3, 2]);
    expect(asked).toEqual(["ab", "abc", "ab"]);
  });
});
