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

describe("a figure written as a level", () => {
  const source =
    "Revenue of the North division rose to $805.1 million in 2023. Revenue of the South division fell to $60.6 million in 2023.";

  it("is not explained by a change of two other figures ('rose to $744.5 million' is no 805.1 - 60.6)", () => {
    const [check] = derivedOf("Revenue of the North division rose to $744.5 million in 2023.", source);
    expect(check).toBeUndefined();
    const all = validateNumbers({
      text: "Revenue of the North division rose to $744.5 million in 2023.",
      evidence: [{ index: 0, origin: "source", text: source }],
    }).numbers;
    expect(all.find((number) => number.text === "$744.5 million")?.status).not.toBe("derived");
  });

  it("a change amount of the same figures is still derived ('grew by $744.5 million')", () => {
    expect(
      derivedOf("North revenue was higher than South revenue by $744.5 million in 2023.", source),
    ).toMatchObject([{ text: "$744.5 million", derivation: "difference" }]);
  });
});
