import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Operand } from "./operands.js";
import { indexOperands, lowerBoundNear } from "./search.js";

const operand = (value: number, rank: number): Operand => ({
  value,
  raw: undefined,
  parts: [],
  combine: "value",
  scale: 1,
  year: undefined,
  rank,
  isPercent: false,
});

/** The order the index had with `TypedArray.prototype.sort` and a comparator: by value, ties by position. */
const referenceOrder = (values: readonly number[]): number[] =>
  values.map((_, i) => i).sort((x, y) => (values[x] as number) - (values[y] as number));

describe("indexOperands", () => {
  it("sorts by value and keeps equal values in their order, across merged runs", () => {
    let state = 3;
    const random = () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
    for (const size of [0, 1, 2, 15, 16, 17, 33, 64, 100, 517]) {
      // Few distinct values (many ties), with -0 and 0 counted as equal.
      const values = Array.from({ length: size }, () => {
        const value = Math.floor(random() * 7) - 3;
        return value === 0 && random() < 0.5 ? -0 : value;
      });
      const index = indexOperands(values.map(operand));
      expect([...index.order]).toEqual(referenceOrder(values));
      expect([...index.sorted]).toEqual(referenceOrder(values).map((i) => values[i]));
    }
  });

  it("keeps the comparator's order when a value is not finite", () => {
    const values = [3, Number.NaN, 1, Number.POSITIVE_INFINITY, 2, Number.NEGATIVE_INFINITY];
    const index = indexOperands(values.map(operand));
    const order = new Int32Array(values.map((_, i) => i));
    order.sort((x, y) => (values[x] as number) - (values[y] as number));
    expect([...index.order]).toEqual([...order]);
  });
});

describe("lowerBoundNear", () => {
  /** The first position whose value is at least `value`, by reading every position. */
  const firstAtLeast = (sorted: Float64Array, value: number): number => {
    const at = sorted.findIndex((each) => each >= value);
    return at < 0 ? sorted.length : at;
  };
  const value = fc.oneof(
    fc.integer({ min: -20, max: 20 }),
    fc.double({ noNaN: true }),
    fc.constantFrom(Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0),
  );

  it("finds the first position at or above a value from any hint, ties and infinities included", () => {
    fc.assert(
      fc.property(
        fc.array(value, { maxLength: 80 }),
        value,
        fc.integer({ min: -5, max: 90 }),
        (values, query, hint) => {
          const sorted = Float64Array.from(values).sort();
          expect(lowerBoundNear(sorted, query, hint)).toBe(firstAtLeast(sorted, query));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("finds the ends of an empty list and of a list every value is below or above", () => {
    expect(lowerBoundNear(new Float64Array(), 3, 0)).toBe(0);
    expect(lowerBoundNear(Float64Array.from([1, 2, 3]), 10, 1)).toBe(3);
    expect(lowerBoundNear(Float64Array.from([1, 2, 3]), -10, 2)).toBe(0);
  });
});
