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
