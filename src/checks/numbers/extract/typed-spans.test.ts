import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findTypedSpans } from "./typed-spans.js";

const kinds = (text: string) =>
  findTypedSpans(text).map((typed) => [text.slice(typed.span.start, typed.span.end), typed.kind]);

describe("findTypedSpans", () => {
  it("finds each kind only where the text holds what its pattern needs", () => {
    expect(kinds("Released v2.1 on 2019-03-04 at 10:30, build 0x1F, ticket #12, item A12.")).toEqual([
      ["v2.1", "version"],
      ["2019-03-04", "date"],
      ["10:30", "time"],
      ["0x1F", "identifier"],
      ["#12", "identifier"],
      ["A12", "identifier"],
    ]);
    expect(kinds("Due 12/31/2019 or March 5, 2020 or 5 Jan; 1.2.3 ships at 5 p.m.")).toEqual([
      ["12/31/2019", "date"],
      ["March 5, 2020", "date"],
      ["5 Jan", "date"],
      ["1.2.3", "version"],
      ["5 p.m.", "time"],
    ]);
  });

  it("finds nothing in plain amounts", () => {
    expect(kinds("Revenue rose to $638.8 million in the fourth quarter of 2023, up 5.2%.")).toEqual([]);
  });

  // The spans by definition: every pattern run over the whole text, in order, the first to cover a span
  // winning. `findTypedSpans` runs a pattern only when the text holds what it needs, which must change nothing.
  const month =
    "(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\\.?";
  const everyPattern: readonly (readonly [string, RegExp])[] = [
    ["identifier", /\b0x[0-9a-fA-F]+\b/g],
    ["date", /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?Z?)?\b/g],
    ["date", /\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/g],
    ["date", new RegExp(`\\b${month}\\s+\\d{1,2}(?:st|nd|rd|th)?(?:,?\\s+\\d{4})?\\b`, "g")],
    ["date", new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${month}(?:,?\\s+\\d{4})?\\b`, "g")],
    ["time", /\b\d{1,2}:\d{2}(?::\d{2})?(?:\s?[aApP]\.?[mM]\.?)?(?![\d:])/g],
    ["time", /\b\d{1,2}\s?[aApP]\.[mM]\./g],
    ["version", /\bv\d+(?:\.\d+)*\b|\b\d+\.\d+\.\d+(?:\.\d+)*\b/g],
    ["identifier", /#\d+\b|\b[A-Za-z]+[-_]?\d[A-Za-z0-9]*\b|\b\d+[A-Za-z]+\d[A-Za-z0-9]*\b/g],
  ];
  const byDefinition = (text: string) => {
    const found: [number, number, string][] = [];
    for (const [kind, pattern] of everyPattern)
      for (const match of text.matchAll(pattern)) {
        const start = match.index;
        const end = start + match[0].length;
        if (!/\d/.test(match[0]) || found.some(([from, to]) => from < end && start < to)) continue;
        found.push([start, end, kind]);
      }
    return found.sort((a, b) => a[0] - b[0]);
  };
  // Texts of figures joined by separators ("2019-05-1", "1/12.05", "12:05"), words, month names and marks, each
  // followed by a joiner or by nothing, so that every pattern's pieces meet in every order.
  const digits = fc.constantFrom("1", "12", "05", "2019", "123");
  const separator = fc.constantFrom("-", "/", ".", ":");
  const figure = fc
    .tuple(digits, fc.array(fc.tuple(separator, digits), { maxLength: 3 }))
    .map(([first, rest]) => first + rest.map(([mark, more]) => mark + more).join(""));
  const word = fc.constantFrom(
    "v",
    "x",
    "0x1F",
    "A",
    "ab",
    "p.m.",
    "am",
    "st",
    "Jan",
    "March",
    "Sept.",
    "of",
    "T",
    "Z",
  );
  const joiner = fc.constantFrom("", " ", " ", ", ", "#", "_", "-", "\n");
  const piece = fc
    .tuple(fc.oneof({ weight: 3, arbitrary: figure }, { weight: 2, arbitrary: word }), joiner)
    .map(([text, after]) => text + after);
  it("finds what running every pattern over the whole text finds, on any text of their pieces", () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const text = pieces.join("");
        const spans = findTypedSpans(text).map(({ span, kind }) => [span.start, span.end, kind]);
        expect(spans).toEqual(byDefinition(text));
      }),
      { numRuns: 4000, seed: 20261126 },
    );
  });
});
