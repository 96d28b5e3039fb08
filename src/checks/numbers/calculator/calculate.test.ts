import { Effect, Either } from "effect";
import { describe, expect, it } from "vitest";
import { calculate, evaluateExpression } from "./calculate.js";

const resultOf = (expression: string) => {
  const outcome = evaluateExpression(expression);
  if (Either.isLeft(outcome)) throw new Error(`refused ${expression}: ${outcome.left.message}`);
  return outcome.right.result;
};

const reasonOf = (expression: string) => {
  const outcome = evaluateExpression(expression);
  return Either.isLeft(outcome) ? outcome.left.reason : `accepted as ${outcome.right.result}`;
};

describe("calculate", () => {
  it.each([
    ["0.1 + 0.2", "0.3"],
    ["(0.50 - 0.45) / 0.45 * 100", "11.11111111111111111111111111111111111111"],
    ["round((0.50 - 0.45) / 0.45 * 100, 2)", "11.11"],
    ["20893 + 76378", "97271"],
    ["-2^2", "-4"],
    ["2^3^2", "512"],
    ["(-2)^2", "4"],
    ["2^-1", "0.5"],
    ["7 % 3", "1"],
    ["50%", "0.5"],
    ["200 * 5%", "10"],
    ["1/3", "0.3333333333333333333333333333333333333333"],
    ["abs(-3.5)", "3.5"],
    ["round(2.5)", "3"],
    ["round(-2.5)", "-3"],
    ["floor(-1.5) + ceil(1.2)", "0"],
    ["min(3, 1, 2) + max(3, 1, 2)", "4"],
    ["sum(1, 2, 3.5)", "6.5"],
    ["avg(166, 178)", "172"],
    ["sqrt(16)", "4"],
    ["log(100, 10)", "2"],
    ["exp(0)", "1"],
    ["pow(10, 3)", "1000"],
    ["1e3 + 1", "1001"],
    ["3 × 4 − 2 ÷ 2", "11"],
    ["ROUND(1.005, 2)", "1.01"],
  ])("%s = %s", (expression, expected) => {
    expect(resultOf(expression)).toBe(expected);
  });

  it.each([
    ["1 / 0", "division-by-zero"],
    ["5 % 0", "division-by-zero"],
    ["0 ^ -1", "division-by-zero"],
    ["foo(1)", "unknown-name"],
    ["constructor(1)", "unknown-name"],
    ["__proto__(1)", "unknown-name"],
    ["toString(1)", "unknown-name"],
    ["x + 1", "syntax"],
    ["process.exit()", "syntax"],
    ["require('fs')", "syntax"],
    ["1 +", "syntax"],
    ["(1 + 2", "syntax"],
    ["", "syntax"],
    ["round(1, 2, 3)", "arity"],
    ["sqrt()", "arity"],
    ["sqrt(-1)", "domain"],
    ["log(0)", "domain"],
    ["(-8) ^ 0.5", "domain"],
    ["10^10^10", "out-of-bounds"],
    ["2 ^ 5000", "out-of-bounds"],
    ["1e400", "out-of-bounds"],
    ["exp(1000)", "out-of-bounds"],
    ["1".repeat(2000), "too-long"],
    [`${"(".repeat(200)}1${")".repeat(200)}`, "too-deep"],
    [`${"-".repeat(200)}1`, "too-deep"],
  ])("refuses %s (%s)", (expression, reason) => {
    expect(reasonOf(expression)).toBe(reason);
  });

  it("fails the Effect with a CalculationError", async () => {
    const error = await Effect.runPromise(Effect.flip(calculate("1 / 0")));
    expect(error._tag).toBe("CalculationError");
    expect(error.reason).toBe("division-by-zero");
  });

  it("honours tighter limits", () => {
    const outcome = evaluateExpression("2 ^ 20", { maxExponent: 10 });
    expect(Either.isLeft(outcome) && outcome.left.reason).toBe("out-of-bounds");
  });
});
