import { Decimal } from "decimal.js";
import { calculationError } from "./errors.js";
import { calculatorFunctions, checkedPow } from "./functions.js";
import { type CalculatorLimits, defaultCalculatorLimits } from "./limits.js";
import type { ExpressionNode } from "./syntax-tree.js";

type DecimalClass = typeof Decimal;

/** A decimal constructor of its own, so our precision never leaks into (or from) other users of decimal.js. */
const makeDecimal = (precision: number): DecimalClass =>
  Decimal.clone({ precision, rounding: Decimal.ROUND_HALF_UP, toExpNeg: -1e6, toExpPos: 1e6 });

/** Built once for the default precision; never reconfigured. */
const defaultDecimal = makeDecimal(defaultCalculatorLimits.precision);

export const decimalFor = (limits: CalculatorLimits): DecimalClass =>
  limits.precision === defaultCalculatorLimits.precision ? defaultDecimal : makeDecimal(limits.precision);

const withinBounds = (value: Decimal, limits: CalculatorLimits, position: number): Decimal => {
  if (!value.isFinite()) throw calculationError("out-of-bounds", "result is not a finite number", position);
  if (!value.isZero() && value.abs().e > limits.maxMagnitude) {
    throw calculationError("out-of-bounds", `value past 10^${limits.maxMagnitude}`, position);
  }
  return value;
};

const binary = (
  operator: "+" | "-" | "*" | "/" | "%" | "^",
  left: Decimal,
  right: Decimal,
  D: DecimalClass,
  limits: CalculatorLimits,
): Decimal => {
  switch (operator) {
    case "+":
      return left.plus(right);
    case "-":
      return left.minus(right);
    case "*":
      return left.times(right);
    case "/":
      if (right.isZero()) throw calculationError("division-by-zero", "division by zero");
      return left.dividedBy(right);
    case "%":
      if (right.isZero()) throw calculationError("division-by-zero", "modulo by zero");
      return left.modulo(right);
    case "^":
      return checkedPow(left, right, D, limits);
  }
};

/** Evaluates a parsed expression with exact decimal arithmetic; throws only `CalculationError`. */
export const evaluateTree = (node: ExpressionNode, D: DecimalClass, limits: CalculatorLimits): Decimal => {
  switch (node.type) {
    case "number":
      return withinBounds(new D(node.literal), limits, node.position);
    case "negate":
      return evaluateTree(node.operand, D, limits).negated();
    case "percent":
      return evaluateTree(node.operand, D, limits).dividedBy(100);
    case "binary": {
      const left = evaluateTree(node.left, D, limits);
      const right = evaluateTree(node.right, D, limits);
      return withinBounds(binary(node.operator, left, right, D, limits), limits, node.position);
    }
    case "call": {
      const implementation = calculatorFunctions.get(node.name.toLowerCase());
      if (!implementation) {
        throw calculationError("unknown-name", `unknown function "${node.name}"`, node.position);
      }
      const args = node.args.map((arg) => evaluateTree(arg, D, limits));
      return withinBounds(implementation(args, D, limits), limits, node.position);
    }
  }
};
