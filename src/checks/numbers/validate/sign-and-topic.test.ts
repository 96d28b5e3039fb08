import { describe, expect, it } from "vitest";
import { checkOf } from "../testing/check-of.js";

// A few lines of a company balance sheet (shape of TAT-QA's tables: a note column, "£m" in the header).
const balanceSheet = [
  "Table:",
  " |  | 2019 | 2018",
  " | Note | £m | £m",
  "Net current assets |  | 4.5 | 152.5",
  "Called-up share capital | 9 | 9.3 | 9.5",
  "Own shares held | 10 | (16.5) | (16.9)",
  "Capital redemption reserve |  | 0.7 | 0.5",
].join("\n");

const liabilities = [
  "Table (in thousands):",
  " | 2019 | 2018",
  "Non-current deferred tax liabilities | (5,637) | (3,990)",
  "Deferred revenue | 38,476 | 24,264",
  "Other non-current liabilities | 24,264 | 20,110",
].join("\n");

describe("validateNumbers: a sign the claim's own figures contradict", () => {
  it.each([
    ["The change in Capital redemption reserve in 2019 from 2018 was 0.2 million.", "derived"],
    // -0.2 is 9.3 - 9.5 of another row; the row the claim names gives +0.2.
    ["The change in Capital redemption reserve in 2019 from 2018 was -0.2 million.", "suspicious"],
  ])("%s -> %s", (text, status) => {
    expect(checkOf(text, balanceSheet)?.status).toBe(status);
  });

  it("says what the sign-flipped figure should have been", () => {
    const check = checkOf(
      "The change in Capital redemption reserve in 2019 from 2018 was -0.2 million.",
      balanceSheet,
    );
    expect(check).toMatchObject({ reason: "sign", expected: "0.2 million", formula: "0.7 - 0.5 = 0.2" });
  });
});

describe("validateNumbers: signs and the claim's wording", () => {
  it.each([
    // A change between accounting negatives keeps its sign: (5,637) - (3,990) = -1,647.
    ["The change in Non-current deferred tax liabilities from 2018 to 2019 was -1,647 thousand.", "derived"],
    [
      "The change in Non-current deferred tax liabilities from 2018 to 2019 was 1,647 thousand.",
      "suspicious",
    ],
    // "The difference between A and B" is a distance, or A - B in the order named.
    [
      "The difference between Deferred revenue and Other non-current liabilities in 2019 was 14,212 thousand.",
      "derived",
    ],
    [
      "The difference between Other non-current liabilities and Deferred revenue in 2019 was -14,212 thousand.",
      "derived",
    ],
    [
      "The difference between Deferred revenue and Other non-current liabilities in 2019 was -14,212 thousand.",
      "suspicious",
    ],
  ])("%s -> %s", (text, status) => {
    expect(checkOf(text, liabilities)?.status).toBe(status);
  });
});

const expectStatus = (text: string, evidence: string, status: string) =>
  expect(checkOf(text, evidence)?.status).toBe(status);

describe("validateNumbers: periods read from the table set the direction of a change", () => {
  const leases = [
    "Table:",
    " | Operating Leases | Finance Leases",
    "2021 | $138 | $6",
    "2022 | 135 | 6",
  ].join("\n");
  const spanned = [
    "Table:",
    " | Fiscal Year 2018 |  | Fiscal Year 2017 | ",
    " | Net Sales | % of Total | Net Sales | % of Total",
    "APAC | $479,987 | 40.0% | $288,764 | 38.1%",
    "EMEA | 277,898 | 23.1% | 237,437 | 31.4%",
  ].join("\n");
  it.each([
    ["The change in operating leases between 2021 and 2022 was -3 million.", leases, "derived"],
    ["The change in operating leases between 2021 and 2022 was 3 million.", leases, "orphan"],
    ["The change in the percent of total sales from APAC from 2017 to 2018 was 1.9%.", spanned, "derived"],
    [
      "The change in the percent of total sales from APAC from 2017 to 2018 was -1.9%.",
      spanned,
      "suspicious",
    ],
  ])("%s -> %s", expectStatus);
});

describe("validateNumbers: words of an item's name are not a direction", () => {
  const carryforward = [
    "Table (in thousands):",
    " | 2019 | 2018",
    "Operating loss carryforward | 73,260 | 57,768",
    "Tax credits | 1,200 | 1,100",
  ].join("\n");
  const income = [
    "Table (in thousands):",
    " | 2019 | 2018 | 2017",
    "Operating income (loss) | 5,737 | (6,986) | (2,235)",
    "Net sales | 115,651 | 115,040 | 100,000",
  ].join("\n");
  it.each([
    // "loss" names the item; the percent change keeps its sign, so the wrong base (21.15%) is not explained
    // as the negation of (57,768 - 73,260) / 73,260.
    [
      "The percentage change in the operating loss carryforward from 2018 to 2019 was 26.82%.",
      carryforward,
      "derived",
    ],
    [
      "The percentage change in the operating loss carryforward from 2018 to 2019 was 21.15%.",
      carryforward,
      "orphan",
    ],
    [
      "The average operating income (loss) across 2017, 2018 and 2019 was -1,161.33 thousand.",
      income,
      "derived",
    ],
    [
      "The average operating income (loss) across 2017, 2018 and 2019 was 1,161.33 thousand.",
      income,
      "suspicious",
    ],
  ])("%s -> %s", expectStatus);
});

describe("validateNumbers: comparatives and coarse rounding", () => {
  const regions = [
    "Table (in millions):",
    " | 2019 | 2018",
    "Americas | 18,500 | 18,030",
    "Asia Pacific | 5,000 | 4,848",
  ].join("\n");
  const question = "How much more revenue came from the Americas as compared to Asia Pacific in 2018";
  it.each([
    [`${question}: the answer is 13,182 million.`, regions, "derived"],
    // "How much more" carries the direction: the amount is positive.
    [`${question}: the answer is -13,182 million.`, regions, "suspicious"],
    ["The change in Capital redemption reserve in 2019 from 2018 was 0.2 million.", balanceSheet, "derived"],
    // 0.2 billion is within the rounding of 152.5 million of another row, but not about the claim's row.
    [
      "The change in Capital redemption reserve in 2019 from 2018 was 0.2 billion.",
      balanceSheet,
      "suspicious",
    ],
    // The same rounding of the row the claim names is a close match.
    ["Net current assets in 2018 were 0.2 billion.", balanceSheet, "close"],
  ])("%s -> %s", expectStatus);
});
