import { describe, expect, it } from "vitest";
import { stem, tokenize } from "./tokens.js";

describe("tokenize", () => {
  it("keeps numbers, contractions and dotted abbreviations whole, with offsets", () => {
    const text = "It didn't cost $1,452.4 in the U.S today";
    const tokens = tokenize(text);
    expect(tokens.map((token) => token.text)).toEqual([
      "It",
      "didn't",
      "cost",
      "1,452.4",
      "in",
      "the",
      "U.S",
      "today",
    ]);
    for (const token of tokens) expect(text.slice(token.span.start, token.span.end)).toBe(token.text);
  });
});

describe("stem", () => {
  it.each([
    ["increased", "increas"],
    ["increases", "increas"],
    ["increasing", "increas"],
    ["companies", "company"],
    ["running", "run"],
    ["sales", "sale"],
    ["analysis", "analysis"],
    ["2019", "2019"],
  ])("%s -> %s", (word, expected) => {
    expect(stem(word)).toBe(expected);
  });
});
