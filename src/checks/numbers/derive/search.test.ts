import { describe, expect, it } from "vitest";
import type { Operand } from "./operands.js";
import { indexOperands } from "./search.js";

const operand = (value: number, rank: number): Operand => ({
  value,
  parts: [],
  combine: "value",
  scale: 1,
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
