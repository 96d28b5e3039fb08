import { describe, expect, it } from "vitest";
import { fingerprintOf, fingerprintOfText, makeSecondSight } from "./second-sight.js";

describe("admission on second sight", () => {
  it("admits texts the second time they are seen, not the first", () => {
    const admit = makeSecondSight({ remember: 8, admitAtOnceChars: 1_000 });
    expect(admit(["The bridge opened in 1932."])).toBe(false);
    expect(admit(["The tunnel opened in 1950."])).toBe(false);
    expect(admit(["The bridge opened in 1932."])).toBe(true);
    expect(admit(["The bridge opened in 1932."])).toBe(true);
  });

  it("admits large texts at once, counting all of them together", () => {
    const admit = makeSecondSight({ remember: 8, admitAtOnceChars: 100 });
    expect(admit(["x".repeat(100)])).toBe(true);
    expect(admit(["x".repeat(60), "y".repeat(40)])).toBe(true);
    expect(admit(["x".repeat(99)])).toBe(false);
  });

  it("forgets the oldest fingerprint once it remembers its limit", () => {
    const admit = makeSecondSight({ remember: 3, admitAtOnceChars: 1_000 });
    for (const text of ["a", "b", "c", "d"]) expect(admit([text])).toBe(false);
    // "a" was the oldest of four: forgotten, so seen "first" again; "d" is still remembered.
    expect(admit(["a"])).toBe(false);
    expect(admit(["d"])).toBe(true);
  });

  it("remembers nothing when told to remember nothing, and refuses a limit that is not a count", () => {
    const admit = makeSecondSight({ remember: 0, admitAtOnceChars: 1_000 });
    expect(admit(["a"])).toBe(false);
    expect(admit(["a"])).toBe(false);
    expect(() => makeSecondSight({ remember: -1, admitAtOnceChars: 1 })).toThrow(RangeError);
    expect(() => makeSecondSight({ remember: 1.5, admitAtOnceChars: 1 })).toThrow(RangeError);
  });

  it("tells apart texts split differently and texts in another order", () => {
    expect(fingerprintOf(["ab", "c"])).not.toBe(fingerprintOf(["a", "bc"]));
    expect(fingerprintOf(["a", "b"])).not.toBe(fingerprintOf(["b", "a"]));
    expect(fingerprintOf(["a", "b"])).toBe(fingerprintOf(["a", "b"]));
    expect(fingerprintOf([])).toBeGreaterThanOrEqual(0);
  });

  /** `long` with the character at `at` replaced by "b". */
  const changedAt = (long: string, at: number) => `${long.slice(0, at)}b${long.slice(at + 1)}`;

  it("reads a long text's length, its ends and evenly spaced characters: a change between them may go unseen", () => {
    const long = "a".repeat(10_000);
    // 10,000 characters are read every 9th (5,004 is read, 5,000 is not), and the first and last 64 all.
    expect(fingerprintOf([changedAt(long, 5_004)])).not.toBe(fingerprintOf([long]));
    expect(fingerprintOf([changedAt(long, 5_000)])).toBe(fingerprintOf([long]));
    expect(fingerprintOf([`${long}a`])).not.toBe(fingerprintOf([long]));
    // A heading or a closing line that differs: texts of one length whose other read characters are equal.
    for (const at of [1, 2, 40, 63, 9_936, 9_990, 9_998])
      expect(fingerprintOf([changedAt(long, at)]), `changed at ${at}`).not.toBe(fingerprintOf([long]));
    expect(fingerprintOf([`${long.slice(0, -7)}round-1`])).not.toBe(
      fingerprintOf([`${long.slice(0, -7)}round-2`]),
    );
    // Short texts are read whole.
    expect(fingerprintOf(["abcdef"])).not.toBe(fingerprintOf(["abcdeg"]));
  });

  it("admits texts whose fingerprints collide sooner, and nothing else changes", () => {
    const admit = makeSecondSight({ remember: 8, admitAtOnceChars: 100_000 });
    const long = "a".repeat(10_000);
    expect(admit([long])).toBe(false);
    // Another text with the same fingerprint counts as seen: the cache keeps it at its first sight.
    expect(admit([changedAt(long, 5_000)])).toBe(true);
  });

  it("answers the texts it read last without reading them again, and never a list changed since", () => {
    const texts = ["The bridge opened in 1932.", "The tunnel opened in 1950."];
    const print = fingerprintOf(texts);
    // The same strings in another list, and equal strings made anew, give the same fingerprint.
    expect(fingerprintOf([...texts])).toBe(print);
    expect(fingerprintOf(texts.map((text) => `${text} `.trim()))).toBe(print);
    // The caller's list changed in place: the fingerprint of what it holds now.
    texts[1] = "The ferry stopped in 1960.";
    expect(fingerprintOf(texts)).toBe(
      fingerprintOf(["The bridge opened in 1932.", "The ferry stopped in 1960."]),
    );
    expect(fingerprintOf(texts)).not.toBe(print);
  });

  it("fingerprints one text as a list of that text, and tells apart texts it was asked about just before", () => {
    const texts = ["", "The bridge opened in 1932.", "x".repeat(5_000), `${"y".repeat(30_000)}z`];
    for (const text of texts) expect(fingerprintOfText(text)).toBe(fingerprintOf([text]));
    // Asked again, and about texts of the same length: each answer is its own text's.
    for (const text of texts) expect(fingerprintOfText(text)).toBe(fingerprintOf([text]));
    const same = ["The bridge opened in 1932.", "The tunnel opened in 1932."];
    expect(fingerprintOfText(same[0] as string)).not.toBe(fingerprintOfText(same[1] as string));
    // A single text's fingerprint leaves the last set fingerprinted as it was.
    const set = ["a 1", "b 2"];
    const print = fingerprintOf(set);
    fingerprintOfText("c 3");
    expect(fingerprintOf(set)).toBe(print);
  });
});
