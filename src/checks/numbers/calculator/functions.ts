import type { Decimal } from "decimal.js";
import { calculationError } from "./errors.js";
import type { CalculatorLimits } from "./limits.js";

type DecimalClass = typeof Decimal;
type CalculatorFunction = (args: readonly Decimal[], D: DecimalClass, limits: CalculatorLimits) => Decimal;

const arity = (name: string, args: readonly Decimal[], min: number, max: number): void => {
  if (args.length < min || args.length > max) {
    const expected =
      min === max ? `${min}` : max === Number.POSITIVE_INFINITY ? `at least ${min}` : `${min} to ${max}`;
    throw calculationError("arity", `${name} takes ${expected} argument(s), got ${args.length}`);
  }
};

const first = (args: readonly Decimal[]): Decimal => args[0] as Decimal;
const second = (args: readonly Decimal[]): Decimal => args[1] as Decimal;

const checkedPow = (base: Decimal, exponent: Decimal, D: DecimalClass, limits: CalculatorLimits): Decimal => {
  if (exponent.abs().gt(limits.maxExponent)) {
    throw calculationError("out-of-bounds", `exponent ${exponent.toString()} is past ±${limits.maxExponent}`);
  }
  if (base.isZero() && exponent.isNegative())
    throw calculationError("division-by-zero", "zero to a negative power");
  if (base.isNegative() && !exponent.isInteger()) {
    throw calculationError("domain", "a negative number to a fractional power");
  }
  if (!base.isZero()) {
    const magnitude = base.abs().log(10).times(exponent);
    if (magnitude.abs().gt(limits.maxMagnitude)) {
      throw calculationError("out-of-bounds", `result past 10^±${limits.maxMagnitude}`);
    }
  }
  return new D(base).pow(exponent);
};

/** The whitelist: nothing else can be called, and lookups never reach an object prototype. */
export const calculatorFunctions: ReadonlyMap<string, CalculatorFunction> = new Map<
  string,
  CalculatorFunction
>([
  [
    "abs",
    (args) => {
      arity("abs", args, 1, 1);
      return first(args).abs();
    },
  ],
  [
    "round",
    (args, D) => {
      arity("round", args, 1, 2);
      const places = args.length === 2 ? second(args) : new D(0);
      if (!places.isInteger() || places.isNegative() || places.gt(100)) {
        throw calculationError("domain", "round takes a whole number of places from 0 to 100");
      }
      return first(args).toDecimalPlaces(places.toNumber(), D.ROUND_HALF_UP);
    },
  ],
  [
    "floor",
    (args) => {
      arity("floor", args, 1, 1);
      return first(args).floor();
    },
  ],
  [
    "ceil",
    (args) => {
      arity("ceil", args, 1, 1);
      return first(args).ceil();
    },
  ],
  [
    "min",
    (args, D) => {
      arity("min", args, 1, Number.POSITIVE_INFINITY);
      return D.min(...args);
    },
  ],
  [
    "max",
    (args, D) => {
      arity("max", args, 1, Number.POSITIVE_INFINITY);
      return D.max(...args);
    },
  ],
  [
    "sum",
    (args, D) => {
      arity("sum", args, 1, Number.POSITIVE_INFINITY);
      return args.reduce((total, x) => total.plus(x), new D(0));
    },
  ],
  [
    "avg",
    (args, D) => {
      arity("avg", args, 1, Number.POSITIVE_INFINITY);
      return args.reduce((total, x) => total.plus(x), new D(0)).dividedBy(args.length);
    },
  ],
  [
    "sqrt",
    (args) => {
      arity("sqrt", args, 1, 1);
      if (first(args).isNegative()) throw calculationError("domain", "square root of a negative number");
      return first(args).sqrt();
    },
  ],
  [
    "log",
    (args, D) => {
      arity("log", args, 1, 2);
      if (!first(args).isPositive() || first(args).isZero())
        throw calculationError("domain", "log of a non-positive number");
      if (args.length === 1) return first(args).ln();
      const base = second(args);
      if (!base.isPositive() || base.isZero() || base.eq(1))
        throw calculationError("domain", "log base must be positive and not 1");
      return new D(first(args)).log(base);
    },
  ],
  [
    "exp",
    (args, D, limits) => {
      arity("exp", args, 1, 1);
      if (
        first(args)
          .abs()
          .gt(limits.maxMagnitude * Math.LN10)
      ) {
        throw calculationError("out-of-bounds", `exp result past 10^±${limits.maxMagnitude}`);
      }
      return D.exp(first(args));
    },
  ],
  [
    "pow",
    (args, D, limits) => {
      arity("pow", args, 2, 2);
      return checkedPow(first(args), second(args), D, limits);
    },
  ],
]);

export { checkedPow };
