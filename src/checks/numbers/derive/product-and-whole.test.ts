import { describe, expect, it } from "vitest";
import { checkOf } from "../testing/check-of.js";

const expectStatus = (text: string, evidence: string, status: string) =>
  expect(checkOf(text, evidence)?.status).toBe(status);

describe("validateNumbers: the whole a share is of", () => {
  const workforce =
    "The restructuring plan included a reduction in force of approximately 14% of the Company's workforce, or 2,317 employees, and the closing of two sites.";

  it("explains a total as a figure divided by its share: 2,317 / 14 * 100", () => {
    expect(checkOf("The total number of company employees was 16550.", workforce)).toMatchObject({
      status: "derived",
      formula: "2317 / 14 * 100 = 16550",
    });
  });

  it("does not explain a nearby wrong total", () => {
    expectStatus("The total number of company employees was 16505.", workforce, "orphan");
  });

  it("is taken only when the claim names a whole", () => {
    expectStatus("The number of company employees was 16550.", workforce, "orphan");
  });
});

describe("validateNumbers: a count times a price per unit", () => {
  const options = [
    "Table:",
    " | Number of Shares | Weighted-Average Exercise Price Per Share",
    "Outstanding at December 31, 2019 | 1,204,377 | $6.15",
    "Granted | 210,450 | $9.40",
  ].join("\n");
  // "Earnings per share:" heads the rows under it.
  const earnings = [
    "Table:",
    " | 2019 | 2018",
    "Net income | $2,811,406 | $2,577,950",
    "Weighted average common shares | 9,371,355 | 9,207,000",
    "Earnings per share: |  | ",
    "Basic | $0.30 | $0.28",
  ].join("\n");

  it("explains the value of shares as their number times the price per share", () => {
    expect(
      checkOf("The value of outstanding shares at December 31, 2019 was 7406918.55.", options),
    ).toMatchObject({ status: "derived", formula: "6.15 * 1204377 = 7406918.55" });
  });

  it("explains total earnings as earnings per share times the shares", () => {
    expect(checkOf("The total earnings in 2019 was 2811406.5.", earnings)).toMatchObject({
      status: "derived",
      formula: "0.30 * 9371355 = 2811406.5",
    });
  });

  it.each([
    ["The value of outstanding shares at December 31, 2019 was 7460918.55.", options, "orphan"],
    ["The total earnings in 2019 was 2811460.5.", earnings, "suspicious"],
  ])("does not explain a nearby wrong product: %s", (text, evidence, status) => {
    expectStatus(text, evidence, status);
  });

  it("multiplies no two figures that are not a count and a price per unit", () => {
    // 2,811.406 * 9.3713 = 26,346.53: a product of figures that are not a count and a price is never tried.
    expectStatus(
      "The total net income and shares in 2019 was 26346.53.",
      ["Table:", " | 2019", "Net income | 2,811.406", "Operating margin | 9.3713"].join("\n"),
      "orphan",
    );
  });
});
