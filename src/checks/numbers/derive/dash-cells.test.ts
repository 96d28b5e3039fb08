import { describe, expect, it } from "vitest";
import { checkOf } from "../testing/check-of.js";

const swaps = [
  "Table (in thousands):",
  " | 2019 | 2018 | 2017",
  "Realized gains (losses) on swaps | — | (31,904) | (12,118)",
  "Realized losses | (4,211) | (5,390) | (16,003)",
  "Total | (4,211) | (37,294) | (28,121)",
].join("\n");

describe("validateNumbers: a nil cell is zero for a change", () => {
  it("explains the change from a figure to nil", () => {
    expect(
      checkOf(
        "The increase in the realized gains (losses) on swaps from 2018 to 2019 was 31904 thousand.",
        swaps,
      ),
    ).toMatchObject({ status: "derived", formula: "0 - (-31904) = 31904" });
  });

  it("does not explain a nearby wrong change", () => {
    const check = checkOf(
      "The increase in the realized gains (losses) on swaps from 2018 to 2019 was 31940 thousand.",
      swaps,
    );
    expect(["orphan", "suspicious"]).toContain(check?.status);
  });

  it("is no item of an average: (0 - 31,904 - 12,118) / 3 is not read from the row", () => {
    const check = checkOf(
      "The average realized gains (losses) on swaps from 2017 to 2019 was -14674 thousand.",
      swaps,
    );
    expect(["orphan", "suspicious"]).toContain(check?.status);
  });
});
