import { describe, expect, it } from "vitest";
import { hashWordSet, sortedJaccard } from "./word-hashes.js";
import { jaccard, textJaccard, wordSet } from "./word-set.js";

describe("word-level Jaccard", () => {
  it.each([
    ["Per ADR-003, we use PostgreSQL", "per adr-003 we use postgresql", 1],
    ["a b c d", "a b c e", 3 / 5],
    ["a b", "c d", 0],
    ["", "", 0],
    ["the the the cat", "the cat", 1],
  ])("%s ~ %s = %d", (a, b, expected) => {
    expect(textJaccard(a, b)).toBeCloseTo(expected, 10);
  });

  it("keeps inner hyphens and drops surrounding punctuation", () => {
    expect([...wordSet("(ADR-003), v1.2; don't!")]).toEqual(["adr-003", "v1.2", "don't"]);
  });

  it("the hashed merge gives the same value as the set computation", () => {
    const pairs = [
      ["the quick brown fox jumps over the lazy dog", "the quick brown fox leaps over the lazy dog"],
      ["alpha beta gamma", "gamma delta"],
      ["one", "one"],
    ] as const;
    for (const [a, b] of pairs) {
      expect(sortedJaccard(hashWordSet(wordSet(a)), hashWordSet(wordSet(b)))).toBeCloseTo(
        jaccard(wordSet(a), wordSet(b)),
        12,
      );
    }
  });
});
