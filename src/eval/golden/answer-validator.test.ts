import { describe, expect, it } from "vitest";
import { type AnswerSignals, AnswerValidator, type ExpectedAnswer, numbersIn } from "./answer-validator.js";

const verified: AnswerSignals = { sourceVerified: true };
const peRatio: ExpectedAnswer = { valueType: "number" };

describe("AnswerValidator gates (before any format check)", () => {
  it.each<[string, AnswerSignals, boolean, string]>([
    [
      "source_verified=false",
      { sourceVerified: false },
      false,
      "HALLUCINATION: value not from verified execution (source_verified=false)",
    ],
    [
      "source_verified missing (conservative default)",
      {},
      false,
      "HALLUCINATION: value not from verified execution (source_verified=missing)",
    ],
    [
      "error_detected=true",
      { sourceVerified: true, errorDetected: true },
      false,
      "ERROR: verification had errors (error_detected=true)",
    ],
    [
      "ambiguity_detected=true",
      { sourceVerified: true, ambiguityDetected: true },
      false,
      "AMBIGUITY: the result is ambiguous (ambiguity_detected=true)",
    ],
    ["source_verified=true", verified, true, "OK: source verified and format matches"],
  ])("%s", (_name, signals, valid, reason) => {
    // The answer is well formatted in every row: only the gates decide.
    const outcome = AnswerValidator.validate("The P/E ratio is 25.3", peRatio, signals);
    expect(outcome.valid).toBe(valid);
    expect(outcome.reason).toBe(reason);
  });

  it("blocks an unverified answer even when its format is wrong, with the hallucination reason", () => {
    const outcome = AnswerValidator.validate("no number here", peRatio, { sourceVerified: false });
    expect(outcome).toMatchObject({ valid: false, failure: "hallucination" });
  });
});

describe("AnswerValidator format checks", () => {
  it.each<[string, string, ExpectedAnswer, boolean]>([
    ["number present", "It is 25.3", { valueType: "number" }, true],
    ["number missing", "It is high", { valueType: "number" }, false],
    ["integer", "There were 42 sales", { valueType: "integer" }, true],
    ["not an integer", "It was 4.5", { valueType: "integer" }, false],
    ["percent", "Growth was 12%", { valueType: "percent" }, true],
    ["percent missing sign", "Growth was 12", { valueType: "percent" }, false],
    ["boolean", "Yes, it did.", { valueType: "boolean" }, true],
    ["value within tolerance", "Sales were $1,496.5 million", { value: 1496, tolerance: 0.001 }, true],
    ["value outside tolerance", "Sales were $1,502 million", { value: 1496.5, tolerance: 0.001 }, false],
    ["value after a year", "Sales in 2019 were $1,496.5 million", { value: 1496.5 }, true],
    ["exact value without tolerance", "25.3", { value: 25.3 }, true],
    ["text value", "The capital is Paris.", { value: "paris" }, true],
    ["contains all phrases", "Revenue rose in Q4", { contains: ["revenue", "q4"] }, true],
    ["missing phrase", "Revenue rose", { contains: ["revenue", "q4"] }, false],
    ["boolean value no", "No.", { value: false }, true],
  ])("%s", (_name, answer, expected, valid) => {
    const outcome = AnswerValidator.validate(answer, expected, verified);
    expect(outcome.valid).toBe(valid);
    if (!outcome.valid) expect(outcome.failure).toBe("format");
  });

  it.each([
    ["In 2019, $1,496.5 million", [2019, 1496.5]],
    ["-3.25 points", [-3.25]],
    ["none", []],
  ])("numbersIn(%j) = %j", (text, expected) => {
    expect(numbersIn(text)).toEqual(expected);
  });
});
