import { describe, expect, it } from "vitest";
import { validateNumbers } from "../validate/validate-numbers.js";

// A made-up report: the table declares thousands over its columns; the prose speaks of millions.
const report = [
  "Table:",
  " | 2019 | 2018",
  " | $'000 | $'000",
  "Rental income | 48,210 | 45,030",
  "Service fees | 3,115 | 2,870",
  "",
  "Paragraphs:",
  "Borrowings (in millions) were 120 in 2019.",
].join("\n");

const check = (text: string) =>
  validateNumbers({ text, evidence: [{ index: 0, origin: "source", text: report }] }).numbers[0];

describe("a table that declares its scale is read in that scale", () => {
  it("traces a cell stated in the table's scale", () => {
    expect(check("Rental income was 48,210 thousand in 2019.")).toMatchObject({ status: "exact" });
    expect(check("Rental income was $48.2 million in 2019.")?.status).toMatch(/exact|close/);
  });

  it("flags a cell stated a thousand times larger, though the prose declares millions", () => {
    expect(check("Rental income was 48,210 million in 2019.")).toMatchObject({
      status: "suspicious",
      reason: "scale",
    });
  });

  it("flags a derivation stated in the wrong scale", () => {
    // 48,210 - 45,030 = 3,180 thousand.
    expect(check("Rental income grew by 3,180 thousand in 2019.")).toMatchObject({ status: "derived" });
    expect(check("Rental income grew by 3,180 million in 2019.")?.status).toBe("suspicious");
  });
});

// A made-up table with a column of percent changes beside amounts in millions, and a row with a rate in its label.
const withPercents = [
  "Table:",
  "($ in millions) | | |",
  "For the year: | 2019 | 2018 | Percent Change",
  "Licence revenue | $2,410 | $1,980 | 21.7",
  "Tax at the statutory rate of 21% | 506 | 416 | 21.6",
  "",
  "Paragraphs:",
  "Licence revenue increased $430 million compared to the prior year.",
].join("\n");

const checkIn = (text: string) =>
  validateNumbers({ text, evidence: [{ index: 0, origin: "source", text: withPercents }] }).numbers[0];

describe("a cell of a column or row headed as percents takes no amount scale", () => {
  it("does not read a percent change as millions in a derivation", () => {
    // 430 - 21.7 = 408.3: "$408.3 million" would be a difference of an amount and a percent.
    expect(checkIn("Licence revenue grew by $408.3 million.")?.status).not.toBe("derived");
  });

  it("keeps the scale of a row whose label states a rate as a fact", () => {
    expect(checkIn("Tax at the statutory rate was $506 million in 2019.")).toMatchObject({ status: "exact" });
  });

  it("still traces the percent itself", () => {
    expect(checkIn("Licence revenue grew 21.7% in 2019.")?.status).toMatch(/exact|close|derived/);
  });
});
