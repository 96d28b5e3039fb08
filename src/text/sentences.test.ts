import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { holdsLetterOrDigit, isTableSeparator, splitSentences } from "./sentences.js";
import { trimSpacesAndTabs } from "./trim.js";

const texts = (input: string) => splitSentences(input).map((sentence) => sentence.text);

describe("splitSentences", () => {
  it.each([
    ["two plain sentences", "The cat sat. The dog ran.", ["The cat sat.", "The dog ran."]],
    [
      "et al. does not end a sentence",
      "Smith et al. reported a rise. It held.",
      ["Smith et al. reported a rise.", "It held."],
    ],
    ["titles", "Dr. Jones met Mr. Smith. They talked.", ["Dr. Jones met Mr. Smith.", "They talked."]],
    ["e.g. and i.e.", "Use a tool, e.g. a hammer. Or not.", ["Use a tool, e.g. a hammer.", "Or not."]],
    ["U.S. inside a sentence", "The U.S. Army grew.", ["The U.S. Army grew."]],
    [
      "U.S. ending a sentence",
      "He moved to the U.S. The weather was better.",
      ["He moved to the U.S.", "The weather was better."],
    ],
    [
      "decimals",
      "It cost $1.5 million. Margins were 3.25%.",
      ["It cost $1.5 million.", "Margins were 3.25%."],
    ],
    ["version numbers", "Version 2.3.1 fixed it. Upgrade now.", ["Version 2.3.1 fixed it.", "Upgrade now."]],
    ["initials", "J. K. Rowling wrote it. The end.", ["J. K. Rowling wrote it.", "The end."]],
    ["question and exclamation", "Really? Yes! Fine.", ["Really?", "Yes!", "Fine."]],
    ["ellipsis", "Wait… Then it happened.", ["Wait…", "Then it happened."]],
    ["lowercase after period stays", "It rose 5 p.c. over the year.", ["It rose 5 p.c. over the year."]],
    [
      "quoted sentence kept whole",
      "He said “It works. Really.” Then he left.",
      ["He said “It works. Really.”", "Then he left."],
    ],
    [
      "closing quote after period",
      'She wrote "done." Next came review.',
      ['She wrote "done."', "Next came review."],
    ],
    ["No. before a number", "See item No. 5 for details.", ["See item No. 5 for details."]],
    [
      "soft-wrapped line",
      "This sentence is\nwrapped onto two lines.",
      ["This sentence is\nwrapped onto two lines."],
    ],
    ["lines without punctuation", "Title line\nSecond line", ["Title line", "Second line"]],
  ])("%s", (_name, input, expected) => {
    expect(texts(input)).toEqual(expected);
  });

  it.each([
    ["heading", "# Results\n\nRevenue grew.", ["Results", "Revenue grew."], ["heading", "paragraph"]],
    [
      "bullets",
      "- First item.\n- Second item. With more.",
      ["First item.", "Second item.", "With more."],
      ["list-item", "list-item", "list-item"],
    ],
    ["numbered list", "1. Alpha\n2) Beta", ["Alpha", "Beta"], ["list-item", "list-item"]],
    [
      "fenced code is left out",
      "Before.\n\n```js\nconst x = 1. Foo.\n```\nAfter.",
      ["Before.", "After."],
      ["paragraph", "paragraph"],
    ],
    ["quote", "> Quoted one. Quoted two.", ["Quoted one.", "Quoted two."], ["quote", "quote"]],
    ["table rows", "| a | b |\n|---|---|\n| 1 | 2 |", ["a | b", "1 | 2"], ["table-row", "table-row"]],
    // A closed heading: its opening and closing runs of "#" are blank; "##x" is a word, not a closing run.
    ["closed heading", "## Results ##\n## ##x ##", ["Results", "##x"], ["heading", "heading"]],
    ["a row of one cell is no table", "| alone\nText.", ["| alone", "Text."], ["paragraph", "paragraph"]],
  ])("markdown: %s", (_name, input, expected, blocks) => {
    const sentences = splitSentences(input);
    expect(sentences.map((sentence) => sentence.text)).toEqual(expected);
    expect(sentences.map((sentence) => sentence.block)).toEqual(blocks);
  });

  it.each([
    "Ünïcödé 🎉 sentence one. 😀 Second one.",
    "# Title\n\nText here. More text.\n\n- item\n> quote. two.\n\n| a | b |",
    "日本語の文。 English follows. Ελληνικά εδώ.",
    "\r\nWindows line endings.\r\nSecond line.\r\n",
  ])("offsets are exact for %j", (input) => {
    for (const sentence of splitSentences(input)) {
      expect(input.slice(sentence.span.start, sentence.span.end)).toBe(sentence.text);
    }
  });

  it("caps over-long sentences so work stays bounded", () => {
    const input = "word ".repeat(2_000);
    const sentences = splitSentences(input, { maxSentenceLength: 500 });
    expect(sentences.length).toBeGreaterThan(15);
    for (const sentence of sentences) expect(sentence.text.length).toBeLessThanOrEqual(500);
  });

  it("returns nothing for empty or punctuation-only text", () => {
    expect(splitSentences("")).toEqual([]);
    expect(splitSentences("  ... !!! \n\n ---")).toEqual([]);
  });
});

describe("splitSentences: ordinary words that look like abbreviations", () => {
  it.each([
    ["The cat sat. It purred.", ["The cat sat.", "It purred."]],
    ["He said no. Then he left.", ["He said no.", "Then he left."]],
    ["It weighs 5 kg. The box is small.", ["It weighs 5 kg.", "The box is small."]],
    ["We saw the sun. It was warm.", ["We saw the sun.", "It was warm."]],
  ])("%j", (input, expected) => {
    expect(texts(input)).toEqual(expected);
  });
});

describe("splitSentences on tokenized, lower-cased text", () => {
  it("ends a sentence at a period that stands apart from its word, whatever the next word's case", () => {
    const text =
      "the council approved the plan , officials said . it will cost $ 3 million . work starts in may .";
    expect(splitSentences(text).map((sentence) => sentence.text)).toEqual([
      "the council approved the plan , officials said .",
      "it will cost $ 3 million .",
      "work starts in may .",
    ]);
  });

  it("keeps an attached period before a lower-case word inside the sentence (abbreviations, ellipses)", () => {
    const text = "He met the approx. number of voters. Then e.g. the rest followed.";
    expect(splitSentences(text).map((sentence) => sentence.text)).toEqual([
      "He met the approx. number of voters.",
      "Then e.g. the rest followed.",
    ]);
  });
});

describe("the quick tests of sentence splitting", () => {
  it("reads a table's separator row as its cells do: two or more dashes, optional colons, between pipes", () => {
    // The definition, cell by cell, without the quick turn-away of rows holding any other character.
    const byCells = (line: string) => {
      let row = trimSpacesAndTabs(line);
      if (row.startsWith("|")) row = row.slice(1);
      if (row.endsWith("|")) row = row.slice(0, -1);
      return row.split("|").every((cell) => /^:?-{2,}:?$/.test(trimSpacesAndTabs(cell)));
    };
    const line = fc
      .array(fc.constantFrom("-", "--", ":", "|", " ", "\t", "a", "\u00a0", "\r", "—"), { maxLength: 16 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(line, (text) => {
        expect(isTableSeparator(text)).toBe(byCells(text));
      }),
      { numRuns: 5_000 },
    );
    expect(isTableSeparator("| --- | :--: |")).toBe(true);
    expect(isTableSeparator("| --- | x |")).toBe(false);
  });

  it("finds a letter or a digit in a stretch as the Unicode expression does, astral and lone surrogates included", () => {
    const unit = fc.constantFrom(
      "a",
      "Z",
      "7",
      " ",
      ".",
      "-",
      "é",
      "日",
      "٣",
      "𝒜",
      "😀",
      "\uD835",
      "\uDC9C",
      "\u0301",
      "\u00a0",
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), fc.nat(), fc.nat(), (parts, a, b) => {
        const text = parts.join("");
        const start = a % (text.length + 1);
        const end = start + (b % (text.length - start + 1));
        expect(holdsLetterOrDigit(text, start, end)).toBe(/[\p{L}\p{N}]/u.test(text.slice(start, end)));
      }),
      { numRuns: 5_000 },
    );
  });

  it("gives a sentence longer than the limit in pieces within it, and one within it whole", () => {
    const long = `${"word ".repeat(30)}end.`;
    const pieces = splitSentences(long, { maxSentenceLength: 40 });
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.text.length).toBeLessThanOrEqual(40);
    expect(splitSentences(long, { maxSentenceLength: long.length }).map((sentence) => sentence.text)).toEqual(
      [long],
    );
  });
});
