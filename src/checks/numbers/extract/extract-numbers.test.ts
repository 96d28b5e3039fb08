import { describe, expect, it } from "vitest";
import { extractNumbers } from "./extract-numbers.js";
import { isQuantity } from "./types.js";

const summary = (text: string, decimalSeparator: "." | "," = ".") =>
  extractNumbers(text, { decimalSeparator }).map((n) => ({
    text: n.text,
    kind: n.kind,
    ...(Number.isNaN(n.value) ? {} : { value: n.value }),
    scale: n.scale,
  }));

describe("extractNumbers", () => {
  it.each([
    ["Revenue was 1,452.4.", { text: "1,452.4", kind: "quantity", value: 1452.4, scale: 1 }],
    ["It fell to -3.2 bn.", { text: "-3.2 bn", kind: "quantity", value: -3.2, scale: 1e9 }],
    ["Capex was (7,227).", { text: "(7,227)", kind: "quantity", value: -7227, scale: 1 }],
    ["EPS was $0.50.", { text: "$0.50", kind: "currency", value: 0.5, scale: 1 }],
    ["Sales of $12.6 million.", { text: "$12.6 million", kind: "currency", value: 12.6, scale: 1e6 }],
    ["Costs of €3m.", { text: "€3m", kind: "currency", value: 3, scale: 1e6 }],
    ["A 5k bonus.", { text: "5k", kind: "quantity", value: 5, scale: 1e3 }],
    ["Deals of 12.6M and more.", { text: "12.6M", kind: "quantity", value: 12.6, scale: 1e6 }],
    ["Debt of 4MM.", { text: "4MM", kind: "quantity", value: 4, scale: 1e6 }],
    ["Sales of 2 trillion.", { text: "2 trillion", kind: "quantity", value: 2, scale: 1e12 }],
    ["It paid 40 USD.", { text: "40 USD", kind: "currency", value: 40, scale: 1 }],
    ["Margin grew 4.5%.", { text: "4.5%", kind: "percent", value: 4.5, scale: 1 }],
    ["Margin grew 4.5 percent.", { text: "4.5 percent", kind: "percent", value: 4.5, scale: 1 }],
    [
      "Up 2.5 percentage points.",
      { text: "2.5 percentage points", kind: "percentage-points", value: 2.5, scale: 1 },
    ],
    ["Spread of 50 bps.", { text: "50 bps", kind: "percentage-points", value: 50, scale: 0.01 }],
    ["It has three segments.", { text: "three", kind: "quantity", value: 3, scale: 1 }],
    ["It has twenty-five stores.", { text: "twenty-five", kind: "quantity", value: 25, scale: 1 }],
    ["In 2019 it grew.", { text: "2019", kind: "year", value: 2019, scale: 1 }],
    // A four-digit figure stated as the value of something is a quantity, unless that something is a period.
    ["The total was 2149.", { text: "2149", kind: "quantity", value: 2149, scale: 1 }],
    ["The answer is 2026.", { text: "2026", kind: "quantity", value: 2026, scale: 1 }],
    ["The fiscal year was 2019.", { text: "2019", kind: "year", value: 2019, scale: 1 }],
    ["Sales grew in 2019.", { text: "2019", kind: "year", value: 2019, scale: 1 }],
    ["Filed on 2024-06-21.", { text: "2024-06-21", kind: "date", scale: 1 }],
    ["Filed on March 5, 2020.", { text: "March 5, 2020", kind: "date", scale: 1 }],
    ["At 10:30 am.", { text: "10:30 am.", kind: "time", scale: 1 }],
    ["The 3rd quarter.", { text: "3rd", kind: "ordinal", value: 3, scale: 1 }],
    ["Release v1.2.3 shipped.", { text: "v1.2.3", kind: "version", scale: 1 }],
    ["See the 10-K.", { text: "10-K", kind: "identifier", scale: 1 }],
    ["In Q3 it grew.", { text: "Q3", kind: "identifier", scale: 1 }],
    ["Over a 3 year period.", { text: "3", kind: "duration", value: 3, scale: 1 }],
  ])("%s", (text, expected) => {
    expect(summary(text)).toEqual([expected]);
  });

  it("gives exact spans into the text", () => {
    const text = "EPS $0.50 vs $0.45, a surprise of 10.96%.";
    for (const number of extractNumbers(text)) {
      expect(text.slice(number.span.start, number.span.end)).toBe(number.text);
    }
  });

  it("keeps the written precision", () => {
    expect(extractNumbers("11.10% and 7").map((n) => n.decimals)).toEqual([2, 0]);
  });

  it("marks approximations", () => {
    expect(extractNumbers("about 20,875 and ~3 and roughly 4.1").map((n) => n.approximate)).toEqual([
      true,
      true,
      true,
    ]);
  });

  it("reads both ends of a range with the scale written once", () => {
    const [low, high] = extractNumbers("guidance of 10-12 million");
    expect([low?.scaled, high?.scaled, low?.inRange, high?.inRange]).toEqual([10e6, 12e6, true, true]);
  });

  it("reads decimal commas when asked", () => {
    expect(summary("Umsatz 1.234,5 EUR", ",")).toEqual([
      { text: "1.234,5 EUR", kind: "currency", value: 1234.5, scale: 1 },
    ]);
  });

  // A footnote mark points to a note; read as the figure -1 it would explain a sign error.
  it.each([
    ["Pension obligations(1) | $412 | $38", ["$412", "$38"]],
    ["Cargo vessels (1)(2) | (2,154) | (14,806)", ["(2,154)", "(14,806)"]],
    ["Equipment rentals (1) | $8,215 | $3,907", ["$8,215", "$3,907"]],
    ["(1) Total lease liabilities excluded $361 million of leases.", ["$361 million"]],
  ])("reads no footnote mark in %s as a figure", (text, quantities) => {
    expect(
      extractNumbers(text)
        .filter(isQuantity)
        .map((n) => n.text),
    ).toEqual(quantities);
  });

  it.each([
    ["Restructuring | (1) | 2", -1],
    ["Net income fell by (2) million.", -2],
  ])("still reads a parenthesized figure in %s as a negative", (text, value) => {
    expect(extractNumbers(text).filter(isQuantity)[0]?.value).toBe(value);
  });

  it("bounds how many numbers it returns", () => {
    expect(extractNumbers("1 ".repeat(100), { maxNumbers: 10 })).toHaveLength(10);
  });
});
