import { describe, expect, it } from "vitest";
import { checkOf } from "../testing/check-of.js";

// Shapes of TAT-QA tables (income statement expense, cash flows, segment sales, fixed assets).
const pensions = [
  "Table:",
  " | 2019 €m | 2018 €m | 2017 €m",
  "Defined contribution schemes | 166 | 178 | 192",
  "Defined benefit schemes | 57 | 44 | 20",
  "Total amount charged to income statement | 223 | 222 | 212",
].join("\n");

const cashFlow = [
  "Table ($ in millions):",
  " | 2019 | 2018 | 2017",
  "Net cash provided by operating activities | 5,621 | 5,432 | 4,980",
  "Free cash flow | 4,411 | 4,044 | 3,316",
].join("\n");

const segments = [
  "Table ($ in millions):",
  "Reporting Segment | Fiscal 2019 Net Sales | Fiscal 2018 Net Sales | % Inc (Dec)",
  "Grocery & Snacks . | $3,279.2 | $3,287.0 | —%",
  "Refrigerated & Frozen | 2,804.0 | 2,753.0 | 2%",
  "International | 793.4 | 843.5 | (6)%",
  "Foodservice | 934.2 | 1,054.8 | (11)%",
  "Total | $9,538.4 | $7,938.3 | 20%",
].join("\n");

const equipment = [
  "Table:",
  "(in thousands) | 2019 | 2018",
  "Land | $672 | $672",
  "Machinery and equipment | 1,372 | 1,296",
  "Leasehold improvements | 798 | 1,238",
  "Land, property and equipment, gross | $8,109 | $8,381",
].join("\n");

const grossProfit = [
  "Table:",
  "(In thousands) | 2019 | Change | 2018 | Change | 2017",
  "Revenues | 284,936 | (31,321) | 316,257 | 80,941 | 235,316",
  "Gross Profit | $60,301 | $(2,567) | $62,868 | $22,506 | $40,362",
].join("\n");

describe("second-level derivations, when the claim names both steps", () => {
  it.each([
    [
      "the difference between two averages",
      "The difference between 2019 average defined contribution schemes and 2019 average defined benefit schemes was 121.5 million.",
      pensions,
      "((166 + 178) / 2) - ((57 + 44) / 2) = 121.5",
    ],
    [
      "the change between two averages of shifted periods",
      "The change between 2018 and 2019 average free cash flow was 547.5 million.",
      cashFlow,
      "((4411 + 4044) / 2) - ((4044 + 3316) / 2) = 547.5",
    ],
    [
      "the percentage change of a sum",
      "The percentage change in total net sales of International and Foodservice from fiscal year 2018 to 2019 was -8.99%.",
      segments,
      "((793.4 + 934.2) - (843.5 + 1054.8)) / (843.5 + 1054.8) * 100 = -8.99",
    ],
    [
      "the share of a sum in the total",
      "The proportion of the sum of Grocery & Snacks and Refrigerated & Frozen net sales over total net sales in fiscal year 2018 was 76.09%.",
      segments,
      "(3287.0 + 2753.0) / 7938.3 * 100 = 76.09",
    ],
    [
      "the share of two items the claim joins with 'and'",
      "The proportion of land and leasehold improvements over the gross cost of land, property and equipment in 2019 was 0.18.",
      equipment,
      "(798 + 672) / 8109 = 0.18",
    ],
    [
      "the average of three figures of a row that are not adjacent",
      "The average annual Gross Profit was 54510.33 thousand.",
      grossProfit,
      "(60301 + 62868 + 40362) / 3 = 54510.33",
    ],
  ])("%s", (_, text, evidence, formula) => {
    const check = checkOf(text, evidence);
    expect(check?.status).toBe("derived");
    expect(check?.formula?.replace(/[()]/g, "")).toBe(formula.replace(/[()]/g, ""));
  });

  it.each([
    // Close but wrong: the second level asks for the written precision, as every match does.
    [
      "The difference between 2019 average defined contribution schemes and 2019 average defined benefit schemes was 124.3 million.",
      pensions,
    ],
    [
      "The percentage change in total net sales of International and Foodservice from fiscal year 2018 to 2019 was -9.31%.",
      segments,
    ],
    // The claim names no average: the difference of two averages does not explain it.
    [
      "The difference between defined contribution schemes and defined benefit schemes in 2019 was 121.5 million.",
      pensions,
    ],
    // The claim names no sum and does not join the items with "and".
    [
      "The proportion of leasehold improvements over the gross cost of land, property and equipment in 2019 was 0.18.",
      equipment,
    ],
  ])("%s -> not derived", (text, evidence) => {
    expect(["orphan", "suspicious"]).toContain(checkOf(text, evidence)?.status);
  });

  it("takes a share of a whole of the same sign only", () => {
    const negativeWhole = equipment.replace("$8,109", "$(8,109)");
    const text =
      "The proportion of land and leasehold improvements over the gross cost of land, property and equipment in 2019 was -0.18.";
    expect(["orphan", "suspicious"]).toContain(checkOf(text, negativeWhole)?.status);
  });

  it("does not let sums sharing a figure explain a change in either order", () => {
    // (A + C) - (B + C) is A - B in an order nothing fixes: not a second-level derivation.
    const text =
      "The change in total net sales of International and Foodservice from 2018 to 2019 was 50.1 million.";
    const check = checkOf(text, segments);
    // Judged (the first level finds the two sums' difference with the opposite sign), never explained by them.
    expect(check?.status).toBe("suspicious");
    expect(check?.formula ?? "").not.toMatch(/\+.*\+/);
  });
});
