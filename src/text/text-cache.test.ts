import { describe, expect, it } from "vitest";
import { makeTextCache } from "./text-cache.js";

/** A reader that counts its calls and returns a new object each time, so a kept reading is told by identity. */
const countingReader = () => {
  const reads: string[] = [];
  return {
    reads,
    read: (text: string) => {
      reads.push(text);
      return { length: text.length, text };
    },
  };
};

const roomy = { entries: 16, characters: 10_000 };
const admitSecond = { remember: 16, admitAtOnceChars: 1_000_000 };

describe("makeTextCache", () => {
  it("reads a text twice, then answers it from the kept reading", () => {
    const cache = makeTextCache<{ length: number }>(roomy, admitSecond);
    const { reads, read } = countingReader();
    const first = cache("The bridge opened in 1932.", "", read);
    const second = cache("The bridge opened in 1932.", "", read);
    expect(second).not.toBe(first);
    expect(cache("The bridge opened in 1932.", "", read)).toBe(second);
    // The same characters in another string object are the same text.
    expect(cache(["The bridge", "opened in 1932."].join(" "), "", read)).toBe(second);
    expect(reads).toHaveLength(2);
  });

  it("keeps a large text the first time it is read", () => {
    const cache = makeTextCache<{ length: number }>(roomy, { remember: 16, admitAtOnceChars: 100 });
    const { reads, read } = countingReader();
    const large = "The bridge opened in 1932. ".repeat(5);
    expect(cache(large, "", read)).toBe(cache(large, "", read));
    expect(reads).toHaveLength(1);
  });

  it("reads a text again for another variant, and keeps one reading per text", () => {
    const cache = makeTextCache<{ length: number }>(roomy, { remember: 16, admitAtOnceChars: 1 });
    const { reads, read } = countingReader();
    const comma = cache("1,5 million", "decimal comma", read);
    expect(cache("1,5 million", "decimal comma", read)).toBe(comma);
    const point = cache("1,5 million", "decimal point", read);
    expect(point).not.toBe(comma);
    expect(cache("1,5 million", "decimal point", read)).toBe(point);
    expect(cache("1,5 million", "decimal comma", read)).not.toBe(comma);
    expect(reads).toEqual(["1,5 million", "1,5 million", "1,5 million"]);
  });

  it("never answers a text with the reading of another whose fingerprint is the same", () => {
    const cache = makeTextCache<{ text: string }>(
      { entries: 16, characters: 20_000 },
      { remember: 16, admitAtOnceChars: 1 },
    );
    const { reads, read } = countingReader();
    // 3,027 characters are fingerprinted every 2nd one, besides their first and last 64: these two texts differ
    // only at the 1,501st, unread, so they share a fingerprint.
    const text = `The bridge opened in 1932. ${"a".repeat(3_000)}`;
    const twin = `${text.slice(0, 1_501)}x${text.slice(1_502)}`;
    expect(twin).not.toBe(text);
    expect(twin.length).toBe(text.length);
    expect(cache(text, "", read).text).toBe(text);
    expect(cache(text, "", read).text).toBe(text);
    expect(reads).toHaveLength(1);
    expect(cache(twin, "", read).text).toBe(twin);
    expect(cache(text, "", read).text).toBe(text);
    expect(reads).toHaveLength(3);
  });

  it("holds at most its entries and characters, dropping the least recently used first", () => {
    const cache = makeTextCache<{ length: number }>(
      { entries: 2, characters: 400 },
      { remember: 16, admitAtOnceChars: 1 },
    );
    const { reads, read } = countingReader();
    const [a, b, c] = ["a", "b", "c"].map((letter) => letter.repeat(90));
    const keptA = cache(a as string, "", read);
    cache(b as string, "", read);
    expect(cache(a as string, "", read)).toBe(keptA);
    // A third text: two entries at most, and `b` was used least recently.
    cache(c as string, "", read);
    expect(cache(a as string, "", read)).toBe(keptA);
    const countBefore = reads.length;
    cache(b as string, "", read);
    expect(reads.length).toBe(countBefore + 1);
    // Characters: texts of 100 (a quarter of the 400, the longest kept) fill them at four, under the ten entries.
    const wide = makeTextCache<{ length: number }>(
      { entries: 10, characters: 400 },
      { remember: 16, admitAtOnceChars: 1 },
    );
    const [v, w, x, y, z] = ["v", "w", "x", "y", "z"].map((letter) => letter.repeat(100)) as string[];
    const keptV = wide(v as string, "", read);
    const keptW = wide(w as string, "", read);
    wide(x as string, "", read);
    wide(y as string, "", read);
    expect(wide(v as string, "", read)).toBe(keptV);
    // A fifth makes 500 characters: `w`, now the least recently used, is dropped; `v` stays.
    wide(z as string, "", read);
    expect(wide(v as string, "", read)).toBe(keptV);
    expect(wide(w as string, "", read)).not.toBe(keptW);
  });

  it("keeps no text longer than a quarter of its characters, and nothing when it has no room", () => {
    const cache = makeTextCache<{ length: number }>(
      { entries: 10, characters: 400 },
      { remember: 16, admitAtOnceChars: 1 },
    );
    const { reads, read } = countingReader();
    const long = "l".repeat(101);
    expect(cache(long, "", read)).not.toBe(cache(long, "", read));
    const short = "s".repeat(100);
    expect(cache(short, "", read)).toBe(cache(short, "", read));
    expect(reads).toEqual([long, long, short]);
    const none = makeTextCache<{ length: number }>({ entries: 0, characters: 400 });
    expect(none(short, "", read)).not.toBe(none(short, "", read));
  });

  it("counts its look-ups, hits, texts passed by and evictions, and says what it holds", () => {
    const cache = makeTextCache<{ length: number }>(
      { entries: 2, characters: 400 },
      { remember: 16, admitAtOnceChars: 1 },
    );
    const { read } = countingReader();
    const [a, b, c] = ["a".repeat(10), "b".repeat(20), "c".repeat(30)];
    cache(a, "", read); // kept at once (admitAtOnceChars 1)
    cache(a, "", read); // hit
    cache(b, "", read);
    cache(c, "", read); // a, least recently used, is evicted
    cache(a, "", read); // read again: a miss, and b is evicted
    cache("l".repeat(101), "", read); // longer than a quarter of 400 characters: never looked up
    expect(cache.stats("test.texts")).toEqual({
      cache: "test.texts",
      lookups: 5,
      hits: 1,
      bypassed: 1,
      evictions: 2,
      entries: 2,
      characters: 40,
      maxEntries: 2,
      maxCharacters: 400,
    });
    // A reading replaced for another variant of the same text is no eviction.
    cache(a, "other", read);
    expect(cache.stats("test.texts")).toMatchObject({ lookups: 6, hits: 1, evictions: 2, entries: 2 });
    const none = makeTextCache<{ length: number }>({ entries: 0, characters: 400 });
    none(a, "", read);
    none(a, "", read);
    expect(none.stats("off")).toMatchObject({ lookups: 0, hits: 0, bypassed: 2, entries: 0, maxEntries: 0 });
  });
});
