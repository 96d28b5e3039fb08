import { Effect, Either } from "effect";
import { CalculationError, calculationError } from "./errors.js";
import { decimalFor, evaluateTree } from "./evaluate.js";
import { type CalculatorLimits, defaultCalculatorLimits } from "./limits.js";
import { parseExpression } from "./parse.js";

/** A finished calculation: the result at full precision as a string, and as a JavaScript number. */
export interface Calculation {
  readonly expression: string;
  readonly result: string;
  readonly value: number;
}

/**
 * Evaluates an arithmetic expression with its own tokenizer, parser and exact decimal evaluator: no `eval`,
 * no `Function`, no `vm`. Returns the result or the typed reason it was refused; never throws.
 */
export const evaluateExpression = (
  expression: string,
  overrides: Partial<CalculatorLimits> = {},
): Either.Either<Calculation, CalculationError> => {
  const limits: CalculatorLimits = { ...defaultCalculatorLimits, ...overrides };
  if (typeof expression !== "string")
    return Either.left(calculationError("syntax", "expression must be a string"));
  return Either.flatMap(parseExpression(expression, limits), (tree) => {
    try {
      const D = decimalFor(limits);
      const value = evaluateTree(tree, D, limits).toSignificantDigits(limits.precision);
      const result = value.isZero() ? "0" : value.toFixed();
      return Either.right({ expression, result, value: value.toNumber() });
    } catch (error) {
      if (error instanceof CalculationError) return Either.left(error);
      return Either.left(
        calculationError("out-of-bounds", "expression could not be evaluated within bounds"),
      );
    }
  });
};

/** `evaluateExpression` as an Effect: fails with `CalculationError`. */
export const calculate = (
  expression: string,
  overrides: Partial<CalculatorLimits> = {},
): Effect.Effect<Calculation, CalculationError> => {
  const outcome = evaluateExpression(expression, overrides);
  return Either.isRight(outcome) ? Effect.succeed(outcome.right) : Effect.fail(outcome.left);
};
