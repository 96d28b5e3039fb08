import { describe, expect, it } from "vitest";
import { checkOf } from "../testing/check-of.js";
import { periodInYear } from "./periods-in-year.js";

describe("periodInYear", () => {
  it.each([
    ["First", 331],
    ["Fourth Quarter", 1231],
    ["Q2", 631],
    ["April 27, 2019", 427],
    ["July 27, 2019 (1)", 727],
    ["Final as of December 31, 2019", 1231],
    ["January 26, 2019 - February 22, 2019", 126],
    ["Revenue", undefined],
    ["2019", undefined],
  ])("%s -> %s", (cell, key) => {
    expect(periodInYear(cell)).toBe(key);
  });
});

// Shapes of TAT-QA tables: quarterly results, dated columns of one year, monthly repurchase periods.
const quarterColumns = [
  "Table:",
  " |  |  |  | Fiscal 2019 | ",
  " | First | Second | Third | Fourth | ",
  " | Quarter | Quarter | Quarter | Quarter | Total",
  "Revenues | $ 94,888 | $ 96,037 | $ 88,495 | $84,380 | $363,800",
].join("\n");

const quarterRows = [
  "Table:",
  " | High | Low",
  "2019: |  | ",
  "Fourth Quarter | $11.44 | $9.47",
  "Third Quarter | $14.96 | $10.26",
].join("\n");

const datedColumns = [
  "Table:",
  " | Estimated at June 30, 2019 | Adjustments | Final as of December 31, 2019",
  "Cash | $3,795 | $ - | $3,795",
  "Total fair value of consideration transferred | 3,757 | 20 | 3,777",
].join("\n");

const monthlyRows = [
  "Table:",
  "Period | Total Number of Shares Purchased | Average Price Paid per Share",
  "January 26, 2019 - February 22, 2019 | 262 | $ 64.77",
  "February 23, 2019 - March 22, 2019 | 3,380 | $ 65.53",
].join("\n");

describe("changes between periods of one year run from the earlier to the later", () => {
  it.each([
    ["The change in revenues between the second and first quarter was 1149.", "derived", quarterColumns],
    ["The change in revenues between the second and first quarter was -1149.", "suspicious", quarterColumns],
    [
      "The change in high price between the third quarter and fourth quarter was -3.52.",
      "derived",
      quarterRows,
    ],
    [
      "The change in high price between the third quarter and fourth quarter was 3.52.",
      "suspicious",
      quarterRows,
    ],
    [
      "The percentage change in the total fair value of consideration transferred at June 30 and December 31, 2019 was 0.53%.",
      "derived",
      datedColumns,
    ],
    [
      "The percentage change in the total fair value of consideration transferred at June 30 and December 31, 2019 was -0.53%.",
      "suspicious",
      datedColumns,
    ],
    [
      "The change in average price paid per share between the first to second month period was 0.76.",
      "derived",
      monthlyRows,
    ],
    [
      "The change in average price paid per share between the first to second month period was -0.76.",
      "suspicious",
      monthlyRows,
    ],
  ])("%s -> %s", (text, status, evidence) => {
    expect(checkOf(text, evidence)?.status).toBe(status);
  });
});
