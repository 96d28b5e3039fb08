import { describe, expect, it } from "vitest";
import { derivationsNamed } from "./operation-words.js";

describe("derivationsNamed", () => {
  it.each([
    ["The average revenue was 172 million.", ["average"]],
    // A percent change, or, of a rate, a change in points (a difference of percents).
    ["The percentage change in revenue was -22.22%.", ["percent-change", "difference"]],
    ["The change in Other was -12.6 million.", ["difference", "percent-change"]],
    // A total: a sum, the whole a share is of, or a count times a price per unit.
    ["The total volume was 97,271.", ["sum", "whole-of-share", "per-unit-product"]],
    // Total expenses: also revenue less income.
    ["The total expenses were 35,796.", ["sum", "whole-of-share", "per-unit-product", "expenses"]],
    ["The research and development expenses were 4,277.", undefined],
    // A ratio, or the same ratio written as a percent.
    ["The ratio of debt to equity was 0.4.", ["ratio", "percentage"]],
    ["The share of revenue from Asia was 25%.", ["percentage", "percent-of", "ratio"]],
    ["The average termination cost per employee was 0.05 million.", ["average", "ratio", "percentage"]],
    ["Revenue was 12.6 million.", undefined],
  ])("%s", (claim, kinds) => {
    const named = derivationsNamed(claim);
    expect(named ? [...named] : undefined).toEqual(kinds);
  });
});
