import { Either } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluateExpression } from "./calculate.js";
import { CalculationError } from "./errors.js";

/** An exact rational `numerator / denominator` with BigInt parts: an evaluator independent of decimal.js. */
interface Rational {
  readonly n: bigint;
  readonly d: bigint;
}

const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? (a < 0n ? -a : a) : gcd(b, a % b));
const rational = (n: bigint, d: bigint): Rational => {
  const sign = d < 0n ? -1n : 1n;
  const g = gcd(n, d) || 1n;
  return { n: (sign * n) / g, d: (sign * d) / g };
};
const fromLiteral = (literal: string): Rational => {
  const [whole = "0", fraction = ""] = literal.split(".");
  return rational(BigInt(whole + fraction), 10n ** BigInt(fraction.length));
};

type Tree =
  | { readonly literal: string }
  | { readonly op: "+" | "-" | "*" | "/"; readonly left: Tree; readonly right: Tree }
  | { readonly negate: Tree };

const literalArbitrary = fc
  .tuple(fc.integer({ min: 0, max: 99_999 }), fc.integer({ min: 0, max: 3 }))
  .map(([digits, places]) => {
    const text = String(digits).padStart(places + 1, "0");
    return places === 0 ? text : `${text.slice(0, -places)}.${text.slice(-places)}`;
  });

const treeArbitrary: fc.Arbitrary<Tree> = fc.letrec<{ tree: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    literalArbitrary.map((literal) => ({ literal })),
    fc.record({
      op: fc.constantFrom("+" as const, "-" as const, "*" as const, "/" as const),
      left: tie("tree"),
      right: tie("tree"),
    }),
    tie("tree").map((inner) => ({ negate: inner })),
  ),
})).tree;

const print = (tree: Tree): string => {
  if ("literal" in tree) return tree.literal;
  if ("negate" in tree) return `-(${print(tree.negate)})`;
  return `(${print(tree.left)} ${tree.op} ${print(tree.right)})`;
};

/** Exact value of a tree, or undefined when it divides by zero. */
const exact = (tree: Tree): Rational | undefined => {
  if ("literal" in tree) return fromLiteral(tree.literal);
  if ("negate" in tree) {
    const inner = exact(tree.negate);
    return inner && rational(-inner.n, inner.d);
  }
  const a = exact(tree.left);
  const b = exact(tree.right);
  if (!a || !b) return undefined;
  switch (tree.op) {
    case "+":
      return rational(a.n * b.d + b.n * a.d, a.d * b.d);
    case "-":
      return rational(a.n * b.d - b.n * a.d, a.d * b.d);
    case "*":
      return rational(a.n * b.n, a.d * b.d);
    case "/":
      return b.n === 0n ? undefined : rational(a.n * b.d, a.d * b.n);
  }
};

/** |x - y| <= 10^-15 * max(1, |y|), compared exactly (intermediate results are rounded to 40 digits). */
const agrees = (computed: Rational, expected: Rational): boolean => {
  const difference = rational(computed.n * expected.d - expected.n * computed.d, computed.d * expected.d);
  const magnitude = (value: bigint) => (value < 0n ? -value : value);
  const scale =
    magnitude(expected.n) > expected.d ? rational(magnitude(expected.n), expected.d) : rational(1n, 1n);
  return magnitude(difference.n) * 10n ** 15n * scale.d <= scale.n * difference.d;
};

describe("calculate, property-based", () => {
  it("agrees with an independent exact rational evaluation on random expression trees", () => {
    fc.assert(
      fc.property(treeArbitrary, (tree) => {
        const expected = exact(tree);
        const outcome = evaluateExpression(print(tree));
        if (!expected) {
          return Either.isLeft(outcome) && outcome.left.reason === "division-by-zero";
        }
        if (Either.isLeft(outcome)) {
          // Only bounds may refuse a computable tree.
          return outcome.left.reason === "out-of-bounds" || outcome.left.reason === "too-deep";
        }
        return agrees(fromLiteral(outcome.right.result.replace(/^(-?)\./, "$10.")), expected);
      }),
      { numRuns: 400 },
    );
  });

  it("never throws, never runs code and always answers with a result or a typed error, whatever the input", () => {
    const hostile = fc.constantFrom(
      "constructor",
      "__proto__",
      "process.exit()",
      "globalThis.process.exit(1)",
      "this.constructor.constructor('return process')()",
      "require('child_process')",
      "eval('1')",
      "Function('return 1')()",
      "10^10^10",
      "9^9^9^9",
      "(".repeat(5_000),
      `${"(".repeat(300)}1${")".repeat(300)}`,
      "-".repeat(3_000),
      "1e999999",
      "sum(" + "1,".repeat(500) + "1)",
      "\u0000\u202e1+1",
      "1/0",
      "log(-1)",
    );
    const noise = fc.string({
      maxLength: 200,
      unit: fc.constantFrom(..."0123456789.+-*/%^(), eE_abcdxyz$€×÷−".split("")),
    });
    fc.assert(
      fc.property(fc.oneof(hostile, noise, fc.string({ maxLength: 300 })), (input) => {
        const exitBefore = process.exitCode;
        const started = performance.now();
        const outcome = evaluateExpression(input);
        const elapsed = performance.now() - started;
        expect(process.exitCode).toBe(exitBefore);
        expect(elapsed).toBeLessThan(1_000);
        if (Either.isLeft(outcome)) expect(outcome.left).toBeInstanceOf(CalculationError);
        else expect(typeof outcome.right.result).toBe("string");
      }),
      { numRuns: 1_500 },
    );
  });
});
