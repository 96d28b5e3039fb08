import { describe, expect, it } from "vitest";
import { clauseAround } from "./named-derivation.js";
import { validateNumbers } from "./validate-numbers.js";

const derivedOf = (text: string, source: string, question?: string) =>
  validateNumbers({
    text,
    evidence: [{ index: 0, origin: "source", text: source }],
    ...(question === undefined ? {} : { question }),
  }).numbers.filter((check) => check.status === "derived");

const revenue = "Revenue was $4.2 million in 2022 and $5.0 million in 2023.";

describe("named derivations", () => {
  it("a figure whose own clause names the operation is named, with its kind", () => {
    expect(derivedOf("Revenue grew by $0.8 million from 2022 to 2023.", revenue)).toMatchObject([
      { text: "$0.8 million", derivation: "difference", named: true },
    ]);
  });

  it("an operation named in another clause of the sentence does not name the figure", () => {
    const [check] = derivedOf("Revenue grew strongly, and the gap was $0.8 million.", revenue);
    expect(check).toMatchObject({ derivation: "difference", named: true });
    const [unnamed] = derivedOf("Revenue grew strongly, with $0.8 million from 2022 to 2023.", revenue);
    expect(unnamed?.named).toBe(false);
  });

  it("the question may name it (a bare answer to 'what was the change')", () => {
    const asked = derivedOf("$0.8 million", revenue, "What was the change in revenue from 2022 to 2023?");
    expect(asked).toMatchObject([{ named: true }]);
    const notAsked = derivedOf("$0.8 million", revenue, "What was reported for 2023?");
    expect(notAsked.map((check) => check.named)).toEqual([false]);
  });

  it("a figure written as a level ('rose to $5.0 million') is not a named change, whatever explains it", () => {
    const source =
      "Revenue was $4.2 million in 2022, $0.8 million of it from licences, and $5.0 million in 2023.";
    const checks = validateNumbers({
      text: "Revenue rose to $3.4 million in 2022.",
      evidence: [{ index: 0, origin: "source", text: source }],
    }).numbers.filter((check) => check.status === "derived");
    // 4.2 - 0.8 = 3.4 explains the figure, and "rose" names a difference, but the figure is the level reached.
    expect(checks).toMatchObject([{ text: "$3.4 million", derivation: "difference", named: false }]);
  });

  it("a calculation written out in the text names its result", () => {
    expect(derivedOf("The gap was 5.0 - 4.2 = 0.8 million.", revenue).at(-1)).toMatchObject({
      derivation: "written-calculation",
      named: true,
    });
  });

  it("cuts the clause at punctuation and joining words", () => {
    const text = "EPS grew by 20.9% to $2.55, and revenue is expected to be $3.65 billion.";
    const at = text.indexOf("$3.65");
    expect(clauseAround(text, at, at + "$3.65 billion".length)).toBe(
      " revenue is expected to be $3.65 billion",
    );
    const growth = text.indexOf("20.9%");
    expect(clauseAround(text, growth, growth + 5)).toBe("EPS grew by 20.9% to $2.55");
  });
});
