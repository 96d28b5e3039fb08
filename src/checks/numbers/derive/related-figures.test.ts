import { describe, expect, it } from "vitest";
import { checkOf } from "../testing/check-of.js";

const expectStatus = (text: string, evidence: string, status: string) =>
  expect(checkOf(text, evidence)?.status).toBe(status);

describe("validateNumbers: figures of prose in two paragraphs stating the same thing at two dates", () => {
  const grants = [
    "In March 2017, we granted 612,000 PSUs with operational targets.",
    "",
    "The PSUs vest over three years.",
    "",
    "In November 2019, we granted 538,750 PSUs with market targets.",
  ].join("\n");

  it("combines them, earlier to later", () => {
    expect(
      checkOf(
        "The change in the number of PSUs granted from March 2017 to November 2019 was -73250.",
        grants,
      ),
    ).toMatchObject({ status: "derived", formula: "538750 - 612000 = -73250" });
  });

  it("does not explain the change with the wrong sign", () => {
    expectStatus(
      "The change in the number of PSUs granted from March 2017 to November 2019 was 73250.",
      grants,
      "suspicious",
    );
  });

  it("never combines figures counting different things", () => {
    const different = [
      "In March 2017, we granted 612,000 PSUs with operational targets.",
      "",
      "In November 2019, we hired 538,750 employees.",
    ].join("\n");
    expectStatus("The change from March 2017 to November 2019 was -73250.", different, "orphan");
  });
});

describe("validateNumbers: a sentence listing figures year by year and the table of those years", () => {
  const table = [
    "Table:",
    " | 2017 | 2018 | 2019",
    "Product sales to affiliates | $41,208 | $35,117 | $12,644",
    "",
  ];
  const listed = [
    ...table,
    "During fiscal 2017, 2018 and 2019 sales of resale products were $402,391, $377,515 and $21,406, respectively.",
  ].join("\n");

  it("combines the sentence's figure of a year with the table's figure of that year", () => {
    expect(
      checkOf(
        "The sales of resale products as a percentage of sales to affiliates in 2019 was 169.30%.",
        listed,
      ),
    ).toMatchObject({ status: "derived", formula: "21406 / 12644 * 100 = 169.3" });
  });

  it("does not explain a nearby wrong percentage", () => {
    expectStatus(
      "The sales of resale products as a percentage of sales to affiliates in 2019 was 169.03%.",
      listed,
      "orphan",
    );
  });

  it("needs a sentence that lists its figures by year", () => {
    const single = [...table, "Sales of resale products were $21,406 in 2019, mostly in Europe."].join("\n");
    expectStatus(
      "The sales of resale products as a percentage of sales to affiliates in 2019 was 169.30%.",
      single,
      "orphan",
    );
  });
});

describe("validateNumbers: a sentence naming a row of totals without the word total", () => {
  const compensation = [
    "Table:",
    " | 2019 | 2018",
    "Research and development | 5,612 | 6,004",
    "General and administrative | 21,455 | 19,873",
    "Total stock-based compensation expense | 27,067 | 25,877",
    "",
    "The table above is in thousands.",
    "",
    "As of December 31, 2019, there was $48.2 million of unrecognized stock-based compensation expense.",
  ].join("\n");

  it("combines the sentence's figure with the row's", () => {
    expect(
      checkOf(
        "The total stock-based compensation expense (recognized and unrecognized) in 2019 was 75267 thousand.",
        compensation,
      ),
    ).toMatchObject({ status: "derived", formula: "27067 + 48200 = 75267" });
  });

  it("does not explain a nearby wrong sum", () => {
    expectStatus(
      "The total stock-based compensation expense (recognized and unrecognized) in 2019 was 75627 thousand.",
      compensation,
      "orphan",
    );
  });
});

describe("validateNumbers: a footnote mark is not a figure", () => {
  const leases = [
    "Table:",
    " | Operating Leases | Finance Leases",
    "2022 | 135 | 6",
    "2023 | 120 | 7",
    "Total lease liabilities(1) | $612 | $41",
    "",
    "(1) Total lease liabilities exclude leases signed but not yet commenced.",
  ].join("\n");

  it("keeps a change the table explains from being read as a sign error against the mark", () => {
    expectStatus("The change in finance leases between 2022 and 2023 was 1 million.", leases, "derived");
  });

  it("still flags the change with the wrong sign", () => {
    expectStatus("The change in finance leases between 2022 and 2023 was -1 million.", leases, "suspicious");
  });
});
