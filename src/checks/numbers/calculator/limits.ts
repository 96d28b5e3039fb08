/** Bounds that keep every calculation small and fast, whatever the expression. */
export interface CalculatorLimits {
  /** Longest accepted expression, in characters. */
  readonly maxLength: number;
  /** Deepest nesting of parentheses, unary signs and function calls. */
  readonly maxDepth: number;
  /** Largest absolute exponent accepted by `^` and `pow`. */
  readonly maxExponent: number;
  /** Largest absolute result (and intermediate value), as a power of ten. */
  readonly maxMagnitude: number;
  /** Significant digits kept by the decimal arithmetic. */
  readonly precision: number;
  /** Most arguments of one function call. */
  readonly maxArguments: number;
}

export const defaultCalculatorLimits: CalculatorLimits = {
  maxLength: 1_000,
  maxDepth: 64,
  maxExponent: 1_000,
  maxMagnitude: 100,
  precision: 40,
  maxArguments: 100,
};
