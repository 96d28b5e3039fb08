import { describe, expect, it } from "vitest";
import { pairedCostRatio } from "../../../testing/measured-cost.js";
import { validateNumbers } from "./validate-numbers.js";

/**
 * The answer's side of a validation: each number is read with the words of its own claim. Given no claims, a
 * number was once read with the whole answer, so every number of a long answer scanned all of it: the time grew
 * with the square of the answer. Now each number reads its sentence.
 */

const source = "Revenue was $4,100 million and $3,900 million. Costs were $200 million.";

const validate = (text: string, claims?: readonly { span: { start: number; end: number } }[]) =>
  validateNumbers({
    text,
    evidence: [{ index: 0, origin: "source" as const, text: source }],
    ...(claims ? { claims } : {}),
  });

/** A sentence of prose between the figures: each number's claim then holds a small part of the answer. */
const prose =
  "The company said that the results were in line with what the analysts had expected for this quarter, and it kept its outlook for the rest of the year. ";

/** An answer of about `characters` characters, two figures in every other sentence, none of them in the source. */
const answerOf = (characters: number): string => {
  let text = "";
  for (let at = 0; text.length < characters; at++)
    text += `Revenue of unit ${at} rose to $${((at * 37) % 9_000) + 100} million in the period. ${prose}`;
  return text;
};

/**
 * Each timed run validates its answer this many times: the thread's CPU clock moves in steps, and a run of a few
 * milliseconds can read as none (a ratio of infinity); eight validations of the smaller answer take 20-40 ms.
 */
const repeats = 8;

/** `validate` run `repeats` times over one answer and its claims. */
const validateRepeatedly = async (
  text: string,
  claims?: readonly { span: { start: number; end: number } }[],
) => {
  for (let at = 0; at < repeats; at++) validate(text, claims);
};

describe("numbers: a long answer", () => {
  it("given no claims, doubling the answer at most about doubles the time", async () => {
    // 12,000 to 48,000 characters: about 120 to 460 numbers, under the 500 an answer has checked. Read with the
    // whole answer, 3.35 per doubling.
    const ratio = Math.sqrt(
      await pairedCostRatio(async (characters) => validateRepeatedly(answerOf(characters)), 12_000, 48_000, {
        warmups: 1,
        rounds: 3,
      }),
    );
    expect(ratio).toBeLessThan(2.5);
  }, 60_000);

  it("given its claims, doubling the answer at most about doubles the time", async () => {
    const claimsOf = (text: string) => {
      const claims: { span: { start: number; end: number } }[] = [];
      for (
        let start = 0, end = text.indexOf(". ");
        end !== -1;
        start = end + 2, end = text.indexOf(". ", start)
      )
        claims.push({ span: { start, end: end + 1 } });
      return claims;
    };
    const ratio = Math.sqrt(
      await pairedCostRatio(
        async (characters) => {
          const text = answerOf(characters);
          return validateRepeatedly(text, claimsOf(text));
        },
        12_000,
        48_000,
        { warmups: 1, rounds: 3 },
      ),
    );
    expect(ratio).toBeLessThan(2.5);
  }, 60_000);
});

describe("numbers: the wording a number is read with", () => {
  const evidence = [
    { index: 0, origin: "source" as const, text: "Segment | Revenue\nFirst | 420\nSecond | 280" },
  ];
  const statusOf = (
    text: string,
    figure: string,
    claims?: readonly { span: { start: number; end: number } }[],
  ) =>
    validateNumbers({ text, evidence, ...(claims ? { claims } : {}) }).numbers.find((n) => n.text === figure)
      ?.status;
  // The first sentence names a sum, which limits its own figure's derivations to sums; the second names no
  // operation, so its figure may be any derivation (here 420 / 280).
  const text =
    "The sum of the two segments' revenue was 700 dollars. The first segment's revenue was 1.5 times the second's.";

  it("given no claims, a number is read with its own sentence, not the words of another", () => {
    expect(statusOf(text, "700 dollars")).toBe("derived");
    expect(statusOf(text, "1.5")).toBe("derived");
  });

  it("a claim the caller gives is read whole, though it holds two sentences", () => {
    // One claim over both sentences: its named sum applies to both figures, and 1.5 is no sum of the sources.
    expect(statusOf(text, "1.5", [{ span: { start: 0, end: text.length } }])).toBe("orphan");
  });

  it("a number outside the claims the caller gives is read with its sentence", () => {
    const first = text.indexOf(". ") + 1;
    expect(statusOf(text, "1.5", [{ span: { start: 0, end: first } }])).toBe("derived");
  });

  it("claims given out of text order still find each number's own", () => {
    const first = text.indexOf(". ") + 1;
    const claims = [
      { span: { start: first + 1, end: text.length } },
      { span: { start: 0, end: text.length } },
    ];
    // The first claim holding the figure is taken, as listed: the second sentence alone.
    expect(statusOf(text, "1.5", claims)).toBe("derived");
  });
});
