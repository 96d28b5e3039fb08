import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../../model/layer.js";
import { extractNumbers } from "../extract/extract-numbers.js";
import { numberWith } from "../extract/types.js";
import { combined } from "./composite-operands.js";
import { plainOperands } from "./operands.js";
import { indexRunOperands } from "./run-operands.js";
import { makeTarget, retarget } from "./search.js";
import { atPlace, buildSourcePool } from "./source-numbers.js";

/**
 * The numbers layer reads thousands of figures, operands and targets per answer in its searches. Objects with
 * the same fields written in the same order share one hidden class in V8, which keeps those reads monomorphic;
 * optional fields spread in (`...(year ? { year } : {})`) gave one figure 15 classes. These tests hold every
 * way of making each kind of object to one list of keys, in one order, over documents that exercise each
 * optional part: tables with and without years, headers, row headings and periods; prose with counted nouns,
 * years, ranges, number words and currencies; dash cells; recorded calculator outputs.
 */
const keysOf = (value: object): string => Object.keys(value).join(",");

const distinctKeys = (values: readonly object[]): string[] => [...new Set(values.map(keysOf))];

const evidence: EvidenceSource[] = [
  {
    index: 0,
    origin: "source",
    text: [
      "(in millions)",
      " | 2019 | 2018 | Note",
      "Earnings per share: | | |",
      "Revenue | $1,200 | $1,050 | 4",
      "Cost of sales | (700) | — | 5",
      "Total | 500 | 1,050 |",
      "",
      " | First | Second | Third | Fourth",
      "Revenues | 94,888 | 96,037 | 88,495 | 84,380",
      "",
      "In 2019 the company granted 320,000 PSUs and about 12-15 million options.",
      "Headcount rose by three hundred to 4,512 employees; revenue grew 14.3% to €2.5 billion.",
      "Revenue of $1,200 was reported; shares traded at 0x1f on 3 May 2019 at 10:30 a.m., version v2.1.",
    ].join("\n"),
  },
  {
    index: 1,
    origin: "source",
    text: "Year ended 30 June 2019 | |\nItem | Amount | Share\nSalaries | 1,000 | 40%\nRent | 300 | 12%\nOther | 200 | 8%",
  },
  { index: -1, origin: "source", text: "1200 - 1050 = 150\n150 / 1050 = 0.142857" },
];

describe("one shape per kind of numbers-layer object", () => {
  const pool = buildSourcePool(evidence);

  it("reads figures of every kind the documents hold (the fixtures exercise each optional field)", () => {
    const numbers = pool.numbers;
    expect(numbers.some((n) => n.table !== undefined)).toBe(true);
    expect(numbers.some((n) => n.table === undefined)).toBe(true);
    expect(numbers.some((n) => n.year !== undefined)).toBe(true);
    expect(numbers.some((n) => n.year === undefined)).toBe(true);
    expect(numbers.some((n) => n.countedNoun !== undefined)).toBe(true);
    expect(numbers.some((n) => n.rowHeading !== undefined)).toBe(true);
    expect(numbers.some((n) => n.periodInYear !== undefined)).toBe(true);
    expect(numbers.some((n) => n.table?.header !== undefined)).toBe(true);
    expect(numbers.some((n) => n.number.unit !== undefined)).toBe(true);
    expect(numbers.some((n) => n.number.unit === undefined)).toBe(true);
    expect(numbers.some((n) => n.number.inRange)).toBe(true);
    expect(numbers.some((n) => n.number.fromWords)).toBe(true);
    expect(numbers.some((n) => n.source === -1)).toBe(true);
  });

  it("gives every source figure, and every table place, the same keys in the same order", () => {
    expect(distinctKeys([...pool.numbers, ...pool.numbers.map((n) => atPlace(n, n.id + 5, 2))])).toHaveLength(
      1,
    );
    const places = pool.numbers.flatMap((n) => (n.table ? [n.table] : []));
    expect(distinctKeys(places)).toEqual(["block,row,column,label,header"]);
  });

  it("gives every extracted number the same keys in the same order, typed ones and copies included", () => {
    const text =
      "On 3 May 2019 at 10:30 a.m. the 2nd release (v2.1, id AB-12, 0x1f) sold 12-15 million units, " +
      "about $4.5 billion, up 14.3% or 120 bps, in 3 years; three hundred staff; (709) outflow; 2019.";
    const numbers = extractNumbers(text);
    expect(new Set(numbers.map((n) => n.kind)).size).toBeGreaterThanOrEqual(6);
    const copies = numbers.map((n) => numberWith(n, { span: { start: 0, end: 1 } }));
    const all = [...numbers, ...copies, ...pool.numbers.map((n) => n.number)];
    expect(distinctKeys(all)).toEqual([
      "text,span,kind,value,literal,scale,scaleWritten,scaled,decimals,unit,approximate,inRange,fromWords",
    ]);
  });

  it("gives plain operands, runs and combinations the same keys in the same order", () => {
    const plain = plainOperands(pool.numbers);
    // Every run a search could find, made as the search makes them.
    const runIndex = indexRunOperands(pool.numbers, 6);
    const runs = Array.from(runIndex.sorted, (_, position) => runIndex.operandAt(position) ?? []).flat();
    expect(plain.some((o) => o.year !== undefined) && plain.some((o) => o.year === undefined)).toBe(true);
    expect(runs.length).toBeGreaterThan(0);
    const [a, b] = plain;
    if (!a || !b) throw new Error("the fixture holds fewer than two operands");
    const all = [...plain, ...runs, combined("sum", a, b, a.value + b.value)];
    expect(distinctKeys(all)).toEqual(["value,raw,parts,combine,scale,year,rank,isPercent"]);
  });

  it("gives every target the same keys in the same order, however it was derived", () => {
    const first = makeTarget(12.6, 0.05, false, undefined);
    const named = makeTarget(14.3, 0.05, true, new Set(["percent-change"] as const));
    const all = [first, named, retarget(first, -12.6), retarget(named, 14300, 50)];
    expect(distinctKeys(all)).toEqual(["value,tolerance,percent,kinds"]);
    expect(retarget(named, 1).kinds).toBe(named.kinds);
    expect(retarget(first, 2).tolerance).toBe(first.tolerance);
  });
});
