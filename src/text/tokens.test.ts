import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "../testing/measured-cost.js";
import { stem, stemsOf, tokenize } from "./tokens.js";

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

/** Characters that have tripped word scanners: letters of every width, joiners, punctuation, a lone surrogate. */
const alphabet = [
  "a",
  "Z",
  "7",
  "é",
  "ß",
  "ж",
  "中",
  "𝐀",
  "😀",
  "'",
  "’",
  ".",
  ",",
  "-",
  " ",
  "\n",
  "$",
  "%",
  "\ud800",
];

describe("the word scanner", () => {
  let seed = 12345;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const randomText = (length: number) =>
    Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join("");

  it("finds exactly the words the reference pattern finds, with the same offsets, on 2,000 random texts", () => {
    const reference = /[\p{L}\p{N}]+(?:['’.,-][\p{L}\p{N}]+)*/gu;
    for (let i = 0; i < 2_000; i++) {
      const text = randomText(1 + Math.floor(next() * 40));
      const expected = [...text.matchAll(reference)].map((match) => [match.index, match[0]]);
      const actual = tokenize(text).map((token) => [token.span.start, token.text]);
      expect(actual, JSON.stringify(text)).toEqual(expected);
    }
  });

  it("lower-cases and stems a word the same way whatever case it was first seen in", () => {
    expect(tokenize("Increased INCREASED increased").map((token) => [token.lower, token.stem])).toEqual([
      ["increased", "increas"],
      ["increased", "increas"],
      ["increased", "increas"],
    ]);
  });
});

describe("tokenize: what a word hides", () => {
  it.each([
    ["a zero-width joiner", "did no\u200Dt approve", "not"],
    ["a zero-width space", "did n\u200Bot approve", "not"],
    ["a soft hyphen", "did no\u00ADt approve", "not"],
    ["a decomposed accent", "the cafe\u0301 opened", "café"],
  ])("reads a word through %s, with its span on the text as written", (_case, text, word) => {
    const token = tokenize(text).find((candidate) => candidate.lower === word);
    expect(token).toBeDefined();
    // The span covers the word as the caller wrote it, invisible character or accent included.
    expect(text.slice(token?.span.start, token?.span.end)).toBe(token?.text);
    expect(token?.text.length).toBeGreaterThan(word.length - 1);
  });

  it("keeps offsets into the original text after a word with an invisible character", () => {
    const text = "no\u200Dt here";
    const [first, second] = tokenize(text, 10);
    expect(first?.span).toEqual({ start: 10, end: 14 });
    expect(second?.span).toEqual({ start: 15, end: 19 });
    expect(second?.lower).toBe("here");
  });
});

describe("stemsOf", () => {
  const stemsByTokens = (text: string) => tokenize(text).map((token) => token.stem);

  it("gives the stems tokenize gives, for ASCII words, accented ones and words with invisible characters", () => {
    const text =
      "The companies increased revenues; Café owners’ profits rose. no\u200Dt U.S. 1,200.5 naïve naive RUNNING running";
    expect(stemsOf(text)).toEqual(stemsByTokens(text));
    // The second reading comes from the remembered words: the same stems.
    expect(stemsOf(text)).toEqual(stemsByTokens(text));
  });

  // Texts of ASCII letters and digits, the joiners, spaces and punctuation, accented and astral letters, a
  // combining mark, invisible characters, a lone surrogate: every branch of both scanners.
  const piece = fc.constantFrom(
    ...alphabet,
    "ab",
    "Ing",
    "(",
    "ñ",
    "\u0301",
    "\u200D",
    "\u00AD",
    "\uFEFF",
    "𝒜",
    "\uD835",
    "日",
    "٣",
    "ed",
    "s",
  );
  const anyText = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(""));

  it("reads the words tokenize reads, whatever characters stand in and between them", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(stemsOf(text)).toEqual(stemsByTokens(text));
      }),
      { numRuns: 3_000 },
    );
  });

  it("reads a range of a text as the slice of that range", () => {
    // Ranges that cut words, joiners, surrogate pairs, marks and invisible characters anywhere.
    fc.assert(
      fc.property(anyText, fc.nat(), fc.nat(), (text, a, b) => {
        const from = a % (text.length + 1);
        const to = from + (b % (text.length - from + 1));
        expect(stemsOf(text, from, to)).toEqual(stemsOf(text.slice(from, to)));
      }),
      { numRuns: 5_000 },
    );
  });

  it("stays right when more distinct words pass than it remembers", () => {
    // 40,000 distinct words fill the table of remembered words past half and clear it.
    const words = Array.from({ length: 40_000 }, (_, i) => `word${i.toString(36)}ing`);
    const text = words.join(" ");
    expect(stemsOf(text)).toEqual(stemsByTokens(text));
    // Against the stemmer itself, which remembers nothing (tokenize reads the same table of words).
    expect(stemsOf(text)).toEqual(words.map((word) => stem(word)));
    expect(stemsOf("walked walking walks")).toEqual(["walk", "walk", "walk"]);
  });

  it("keeps no long word it has read: distinct words of 100 KB leave no memory behind", () => {
    const lettersOf = (n: number) =>
      Array.from({ length: 3 }, (_, place) =>
        String.fromCharCode(97 + (Math.floor(n / 26 ** place) % 26)),
      ).join("");
    collectGarbage();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100; i++) {
      const word = `${lettersOf(i)}${"a".repeat(100_000)}`;
      const upper = word.toUpperCase();
      expect(stemsOf(`${word} ${upper}`)).toEqual([stem(word), stem(word)]);
      expect(tokenize(`é${word}`)[0]?.stem).toBe(stem(`é${word}`));
    }
    collectGarbage();
    // Kept, the 100 words and their forms held about 38 MB; a few MB is the test's own noise.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 1024 * 1024);
  });

  it("tells apart two words whose hashes are equal", () => {
    // "yaczfa" and "glbppa" have the same 32-bit FNV-1a hash (the table's key), and the same length.
    const fnv1a32 = (word: string) => {
      let hash = 0x811c9dc5;
      for (let at = 0; at < word.length; at++) hash = Math.imul(hash ^ word.charCodeAt(at), 0x01000193);
      return hash >>> 0;
    };
    expect(fnv1a32("yaczfa")).toBe(fnv1a32("glbppa"));
    expect(stemsOf("yaczfa glbppa yaczfa glbppa")).toEqual(["yaczfa", "glbppa", "yaczfa", "glbppa"]);
    expect(stemsOf("glbppa yaczfa")).toEqual(["glbppa", "yaczfa"]);
  });

  it("stems long words, and stays right when long words fill the characters it keeps", () => {
    // 300 letters: longer than a word the table keeps. Then 6,000 distinct words of 250 letters (1.5 million
    // characters), more than the table keeps characters of before it is half full, read twice.
    const long = `${"a".repeat(296)}ings`;
    expect(stemsOf(`${long} ${long.toUpperCase()}`)).toEqual([stem(long), stem(long)]);
    expect(tokenize(long)[0]?.stem).toBe(stem(long));
    const lettersOf = (n: number) =>
      Array.from({ length: 4 }, (_, place) =>
        String.fromCharCode(97 + (Math.floor(n / 26 ** place) % 26)),
      ).join("");
    const words = Array.from({ length: 6_000 }, (_, i) => `${lettersOf(i)}${"e".repeat(243)}ed`);
    const expected = words.map((word) => stem(word));
    const text = words.join(" ");
    expect(stemsOf(text)).toEqual(expected);
    expect(stemsOf(text)).toEqual(expected);
    expect(tokenize(words.slice(0, 3).join(" ")).map((token) => token.stem)).toEqual(expected.slice(0, 3));
  });
});
