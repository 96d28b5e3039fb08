import { describe, expect, it } from "vitest";
import { derivationsNamed } from "./operation-words.js";

describe("derivationsNamed", () => {
  it.each([
    ["The average revenue was 172 million.", ["average"]],
    // A percent change, or, of a rate, a change in points (a difference of percents).
    ["The percentage change in revenue was -22.22%.", ["percent-change", "difference"]],
    ["The change in Other was -12.6 million.", ["difference", "percent-change"]],
    ["The total volume was 97,271.", ["sum"]],
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
