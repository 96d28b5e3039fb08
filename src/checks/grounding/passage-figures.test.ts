import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasDigit } from "../../text/ascii.js";
import { passageFigures } from "./numbers.js";
import type { Passage } from "./source-index.js";
import { passagesOf } from "./testing/passages-of.js";

/** The figures the slow way: every passage tokenized, the stems of its words written with a digit. */
const tokenFigures = (passages: readonly Passage[]): Set<string> =>
  new Set(
    passages.flatMap((passage) => passage.tokens.filter((token) => hasDigit(token.lower)).map((t) => t.stem)),
  );

const words = [
  "1,452.4",
  "3.5",
  "12%",
  "2019",
  "1990s",
  "3rd",
  "A320",
  "Q3",
  "v2.3.1",
  "12ies",
  "4-7",
  "١٢",
  "companies",
  "revenue",
  "rose",
  "increased",
  "the",
  "in",
  "million",
];

describe("passageFigures", () => {
  it("gives the stems of the passages' words written with digits, as tokenizing them does", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...words), { minLength: 1, maxLength: 12 }), {
          minLength: 1,
          maxLength: 4,
        }),
        (sentences) => {
          const aligned = passagesOf(sentences.map((sentence) => `${sentence.join(" ")}.`).join(" "));
          expect(passageFigures({ aligned })).toEqual(tokenFigures(aligned));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reads figures of every aligned passage and no word without a digit", () => {
    const aligned = passagesOf("Revenue rose to 1,452.4 in 2019.", "The A320 flew in Q3. Companies grew.");
    expect([...passageFigures({ aligned })].sort()).toEqual(["1,452.4", "2019", "a320", "q3"]);
  });
});
