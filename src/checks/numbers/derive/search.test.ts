import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Operand, plainOperands } from "./operands.js";
import {
  defaultSearchLimits,
  type Found,
  findPairs,
  indexOperands,
  lowerBoundNear,
  makeTarget,
  type Target,
} from "./search.js";
import { buildSourcePool } from "./source-numbers.js";

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

  it("sorts a list after a longer one as it sorts it alone (the sort's work arrays are kept between sorts)", () => {
    const values = (size: number, seed: number) =>
      Array.from({ length: size }, (_, i) => ((i * 7_919 + seed * 104_729) % 23) - 11);
    for (const [size, seed] of [
      [517, 1],
      [100, 2],
      [33, 3],
      [17, 4],
      [2, 5],
      [300, 6],
    ] as const) {
      const list = values(size, seed);
      const index = indexOperands(list.map(operand));
      expect([...index.order]).toEqual(referenceOrder(list));
      expect([...index.sorted]).toEqual(referenceOrder(list).map((i) => list[i]));
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

describe("findPairs", () => {
  // Two tables and a line of prose, so sums, differences, ratios and percent changes are there to be found.
  const pool = buildSourcePool([
    {
      index: 0,
      origin: "source",
      text: [
        " | 2019 | 2018 | 2017",
        "Revenue | 1,200 | 1,050 | 980",
        "Cost of sales | 700 | 640 | 610",
        "Gross profit | 500 | 410 | 370",
        "",
        "Operating expenses were 320 in 2019 and 290 in 2018.",
      ].join("\n"),
    },
  ]);
  const operands = plainOperands(pool.numbers);
  const index = indexOperands(operands);
  const search = (target: Target, accept?: (found: Found) => boolean) =>
    findPairs(index, operands, target, defaultSearchLimits, 8, accept);
  const described = (found: readonly Found[]) =>
    found.map((pair) => `${pair.kind} ${pair.a.value} ${pair.b?.value}`);
  const targets = [
    makeTarget(150, 0.5, false, undefined),
    makeTarget(2_250, 0.5, false, undefined),
    makeTarget(14.3, 0.05, true, undefined),
    makeTarget(90, 0.5, false, undefined),
    makeTarget(41.7, 0.05, true, undefined),
  ];

  it("finds the same pairs when a caller's test runs another search (its work arrays are never shared)", () => {
    const alone = targets.map((target) => described(search(target)));
    expect(alone.some((pairs) => pairs.length > 1)).toBe(true);
    targets.forEach((target, at) => {
      const inner = targets[(at + 1) % targets.length] as Target;
      const innerResults: string[][] = [];
      // Every candidate the outer search tests runs a whole search of its own first.
      const nested = search(target, () => {
        innerResults.push(described(search(inner)));
        return true;
      });
      expect(described(nested)).toEqual(alone[at]);
      for (const result of innerResults) expect(result).toEqual(alone[(at + 1) % targets.length]);
    });
  });

  it("finds the same pairs in any order of searches, after longer and shorter lists of second operands", () => {
    const alone = targets.map((target) => described(search(target)));
    const fewer = operands.slice(0, 3);
    for (const at of [4, 0, 3, 1, 2]) {
      findPairs(index, fewer, targets[at] as Target, defaultSearchLimits);
      expect(described(search(targets[at] as Target))).toEqual(alone[at]);
    }
  });
});
