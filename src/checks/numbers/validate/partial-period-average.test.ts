import { describe, expect, it } from "vitest";
import { checkOf } from "../testing/check-of.js";

// Shapes of TAT-QA tables: one row over three years; a column of quarterly prices.
const cash = [
  "Table ($ in billions):",
  " | 2019 | 2018 | 2017",
  "Net cash operating activities | $14.8 | $15.2 | $16.7",
].join("\n");

const prices = [
  "Table:",
  " | High | Low",
  "2018: |  | ",
  "Fourth Quarter | $7.35 | $5.99",
  "Third Quarter | $6.21 | $4.79",
  "Second Quarter | $4.40 | $2.66",
  "First Quarter | $3.10 | $1.88",
].join("\n");

describe("an average over some of the periods when the claim names none", () => {
  it.each([
    // (14.8 + 15.2 + 16.7) / 3: every year of the row.
    ["The average of Net cash operating activities was 15.57 billion.", "derived", cash],
    // (16.7 + 14.8) / 2 leaves 2018 out, and the claim names no year.
    ["The average of Net cash operating activities was 15.75 billion.", "flagged", cash],
    // Naming the years makes the pair the average asked for.
    ["The average of Net cash operating activities in 2019 and 2017 was 15.75 billion.", "derived", cash],
    ["The average quarterly low price in 2018 was 3.83.", "derived", prices],
    // (4.79 + 2.66) / 2 = 3.725: two of the four quarters.
    ["The average quarterly low price in 2018 was 3.72.", "flagged", prices],
    ["The average low price in the second and third quarter of 2018 was 3.72.", "derived", prices],
  ])("%s -> %s", (text, status, evidence) => {
    const found = checkOf(text, evidence)?.status;
    expect(found === "derived" ? "derived" : "flagged").toBe(status);
  });
});

const rates = [
  "Table:",
  " | 2019 | 2018 | 2017",
  "Risk-free interest rate | 2.7% | 2.0% | 1.0%",
  "Dividend yield | 1.7% | 1.5% | 1.5%",
].join("\n");

describe("an average over a number of periods the claim counts", () => {
  it.each([
    // (1.7 + 1.5 + 1.5) / 3 = 1.57.
    ["The average dividend yield for the 3 years was 1.57%.", "derived"],
    // (2.0 + 1.5) / 2 = 1.75 averages two figures, not three years.
    ["The average dividend yield for the 3 years was 1.75%.", "flagged"],
    ["The average dividend yield for both years was 1.75%.", "derived"],
  ])("%s -> %s", (text, status) => {
    const found = checkOf(text, rates)?.status;
    expect(found === "derived" ? "derived" : "flagged").toBe(status);
  });
});
