import { describe, expect, it } from "vitest";
import { checkOf } from "../testing/check-of.js";

const operations = [
  "Table (in millions):",
  " | 2019 | 2018",
  "Total revenues | $48,217 | $44,902",
  "Operating income | $15,306 | $14,011",
  "Net income | $9,114 | $4,768",
].join("\n");

describe("validateNumbers: total expenses are what revenue leaves after income", () => {
  it.each([
    ["The total expenses in 2019 were 39103 million.", "48217 - 9114 = 39103"],
    ["The total operating expenses in 2018 were 30891 million.", "44902 - 14011 = 30891"],
  ])("%s", (text, formula) => {
    expect(checkOf(text, operations)).toMatchObject({ status: "derived", formula });
  });

  it("does not explain nearby wrong expenses", () => {
    expect(checkOf("The total expenses in 2019 were 39130 million.", operations)?.status).toBe("orphan");
  });

  it("is not what a total of anything else is", () => {
    // 48,217 - 9,114 again, but a total of income is no difference.
    expect(["orphan", "suspicious"]).toContain(
      checkOf("The total income in 2019 was 39103 million.", operations)?.status,
    );
  });
});
