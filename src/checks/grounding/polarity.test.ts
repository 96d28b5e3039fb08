import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isNegation, mayHoldNegation } from "./polarity.js";
import type { Passage } from "./source-index.js";
import { passagesOf } from "./testing/passages-of.js";

/** The cues in the forms a text writes them: as they are, capitalised, upper-cased, with a curly apostrophe. */
const cueForms = [
  "not",
  "No",
  "NEVER",
  "None",
  "Nobody",
  "NOTHING",
  "Neither",
  "nor",
  "Without",
  "CANNOT",
  "Lack",
  "lacks",
  "Lacked",
  "UNABLE",
  "Fail",
  "fails",
  "FAILED",
  "Refuse",
  "refused",
  "DENIED",
  "deny",
  "didn't",
  "Isn’t",
  "WOULDN'T",
  "can’t",
  "don't",
];

const plainWords = ["the", "board", "approved", "merger", "rates", "rose", "quickly", "in", "2024", "shares"];

describe("mayHoldNegation", () => {
  it("says so for every passage that holds a cue, in any form and place", () => {
    for (const cue of cueForms) {
      for (const text of [
        `${cue} the board approved it.`,
        `The board ${cue} approved the merger.`,
        `The merger was approved, ${cue}.`,
        `(${cue}) rates rose.`,
      ]) {
        const [passage] = passagesOf(text);
        expect(passage?.tokens.some(isNegation), text).toBe(true);
        expect(mayHoldNegation(passage as Passage), text).toBe(true);
      }
    }
  });

  it("never says no where a passage's tokens hold a cue, over sentences made of cues and other words", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...cueForms, ...plainWords, ...plainWords, ...plainWords), {
          minLength: 1,
          maxLength: 16,
        }),
        (words) => {
          for (const passage of passagesOf(`${words.join(" ")}.`))
            if (passage.tokens.some(isNegation)) expect(mayHoldNegation(passage)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("says no for passages without a cue, so they are not tokenized for one", () => {
    for (const text of [
      "The board approved the merger in 2024.",
      "Rates rose quickly; shares followed.",
      "Notation, nothingness, knots and failures: words that begin as cues do.",
    ]) {
      const [passage] = passagesOf(text);
      expect(mayHoldNegation(passage as Passage), text).toBe(false);
    }
  });
});
