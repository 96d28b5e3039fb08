import { describe, expect, it } from "vitest";
import { madeUpPayloads } from "./made-up-payloads.js";

describe("madeUpPayloads", () => {
  it("gives the same payloads for the same seed and other payloads for another", () => {
    expect(madeUpPayloads(5, 42)).toEqual(madeUpPayloads(5, 42));
    const [first] = madeUpPayloads(1, 42);
    const [other] = madeUpPayloads(1, 43);
    expect(other?.text).not.toBe(first?.text);
  });

  it("makes answers and sources of about the sizes asked for", () => {
    for (const [answerChars, sourceChars] of [
      [1_000, 10_000],
      [300, 2_000],
    ] as const) {
      for (const payload of madeUpPayloads(20, 7, answerChars, sourceChars)) {
        expect(payload.text.length).toBeGreaterThanOrEqual(answerChars - 1);
        expect(payload.text.length).toBeLessThan(answerChars + 400);
        const size = payload.sources.reduce((sum, source) => sum + source.length, 0);
        expect(size).toBeGreaterThanOrEqual(sourceChars);
        expect(size).toBeLessThan(sourceChars + 2_000);
      }
    }
  });

  it("mixes prose and tables, and answers with figures and with sentences taken from their sources", () => {
    const payloads = madeUpPayloads(40, 3);
    const sources = payloads.flatMap((payload) => payload.sources);
    expect(sources.some((source) => source.startsWith("Table:") && source.includes(" | "))).toBe(true);
    expect(sources.some((source) => !source.startsWith("Table:"))).toBe(true);
    for (const payload of payloads) {
      expect(payload.text).toMatch(/\d/);
      const sentences = payload.text.match(/[A-Z][^.!?]*[.!?]/g) ?? [];
      // Some of its sentences are found word for word in its own sources: an answer with support to find.
      expect(sentences.some((sentence) => payload.sources.some((source) => source.includes(sentence)))).toBe(
        true,
      );
    }
  });
});
