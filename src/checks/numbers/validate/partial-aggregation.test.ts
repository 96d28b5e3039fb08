import { describe, expect, it } from "vitest";
import { validateNumbers } from "./validate-numbers.js";

// A made-up statement: two rows whose figures happen to add up near the other figure the claim is about.
const statement = [
  "Table:",
  " | 2019 | 2018",
  "Store count | 410 | 395",
  "Franchised stores | 120 | 118",
  "Company stores | 285 | 270",
  "Total stores | 405 | 388",
  "Operating income | 7,800 | 7,100",
  "Net income | 4,300 | 3,900",
  "Total assets | 52,000 | 49,000",
].join("\n");

const partials = (text: string) =>
  validateNumbers({ text, evidence: [{ index: 0, origin: "source", text: statement }] }).partialAggregations;

describe("a partial total is a total of what the claim totals", () => {
  it("does not take a total of another quantity as the whole the claim's figure falls short of", () => {
    // 7,800 + 4,300 = 12,100 sums two rows above "Total assets": the claim is about notes issued, not assets.
    expect(partials("The total value of senior notes issued in 2019 was 12,100.")).toEqual([]);
  });

  it("still flags a partial sum when the claim names the totalled quantity", () => {
    const flagged = partials("Total assets in 2019 were 12,100.");
    expect(flagged).toHaveLength(1);
    expect(flagged[0]).toMatchObject({ sourceTotal: "52,000" });
  });

  it("still flags a partial sum when the claim names no quantity at all", () => {
    expect(partials("The total was 12,100.")).toHaveLength(1);
  });
});

describe("the items of a total", () => {
  // Two runs of items in one column, each closed by its total.
  const twoTotals = [
    " | 2019 | 2018",
    "North | 10 | 1",
    "South | 20 | 2",
    "Total first half | 30 | 3",
    "East | 40 | 4",
    "West | 50 | 5",
    "Centre | 60 | 6",
    "Total second half | 200 | 15",
  ].join("\n");
  const partialsOf = (text: string) =>
    validateNumbers({ text, evidence: [{ index: 0, origin: "source", text: twoTotals }] })
      .partialAggregations;

  it("are the cells above it in its own column, after the column's last total", () => {
    expect(partialsOf("The total was 90.")).toMatchObject([{ sourceTotal: "200", items: ["40", "50"] }]);
    expect(partialsOf("The total was 9.")).toMatchObject([{ sourceTotal: "15", items: ["4", "5"] }]);
  });

  it("never reach above the last total, nor into another column", () => {
    // 10 + 40: items of two runs; 10 + 4: items of two columns.
    expect(partialsOf("The total was 50.")).toEqual([]);
    expect(partialsOf("The total was 14.")).toEqual([]);
  });
});

describe("a claimed total whose search runs out of work", () => {
  const block = [
    "Item | 2019 | 2018",
    ...Array.from({ length: 24 }, (_, k) => `Item ${k} revenue | ${1_000 + 7 * k} | ${900 + 3 * k}`),
    "Total revenue | 99,000 | 88,000",
  ].join("\n");

  it("is left unchecked and counted as skipped for work, never passed", () => {
    // The figures of the table count 51 for the number's trace; its total's 24 items make 2,300 sums per period.
    const result = validateNumbers(
      {
        text: "The total revenue was 5,000,000 dollars.",
        evidence: [{ index: 0, origin: "source", text: block }],
      },
      { maxTraceWork: 1_000 },
    );
    expect(result.numbers).toEqual([]);
    expect(result.skipped).toBe(1);
    expect(result.skippedByWork).toBe(1);
    expect(result.skippedSpans?.[0]?.start).toBe("The total revenue was ".length);
  });

  it("is checked in full with the default bound", () => {
    const result = validateNumbers({
      text: "The total revenue was 5,000,000 dollars.",
      evidence: [{ index: 0, origin: "source", text: block }],
    });
    expect(result.numbers.map((n) => n.status)).toEqual(["orphan"]);
    expect(result.skipped).toBe(0);
  });
});
