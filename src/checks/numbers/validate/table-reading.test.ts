import { describe, expect, it } from "vitest";
import { checkOf } from "../testing/check-of.js";

// Shapes of TAT-QA tables and the sentences under them.
const shareCapital = [
  "Table:",
  " | 2019 |  | 2018 | ",
  " | NUMBER |  | NUMBER | ",
  "SHARE CAPITAL | M | $M | M | $M",
  "1,258,690,067 fully paid ordinary shares (2018: 1,313,323,941) |  |  |  | ",
  "Balance at start of period | 1,313.3 | 6,201 | 1,294.4 | 5,719",
];

const relatedParties = [
  "Table:",
  " | As of December 31, | ",
  " | 2018 | 2019",
  "Ship management creditors | 268 | 328",
  "Amounts due to related parties | 169 | 200",
  "",
  "Amounts due to related parties of $200 (December 31, 2018: $169) are expenses paid by a related party.",
];

const restructuring = [
  "Table:",
  "Fiscal 2017 Restructuring Plan | Workforce reduction | Facility costs | Total",
  "Balance payable as at June 30, 2017 | $10,045 | $1,369 | $11,414",
  "Balance payable as at June 30, 2019 | $1,046 | $2,949 | $3,995",
];

const revenues = [
  "Table:",
  " | December 31, 2019 | December 31, 2018 | December 31, 2017",
  "EMEA | 2,265 | 2,478 | 2,142",
  "Americas | 1,351 | 1,264 | 1,085",
  "Asia Pacific | 5,940 | 5,922 | 5,120",
  "Total revenues | 9,556 | 9,664 | 8,347",
];

const customers = [
  "Table:",
  " | 2019 | 2018 | 2017",
  "Apple Inc. | 32% | 36% | 34%",
  "Huawei Technologies Co., Ltd. | 13% | 8% | 11%",
];

const allocation = [
  "Table:",
  "(In millions) | As of December 31, 2019",
  "Total assets acquired | 545.8",
  "Total liabilities assumed | 100.1",
];

const costOfCapital = ["Table:", " | 2019 | 2018", "WACC (%) | 9.0 | 9.5", "Growth rate (%) | 2.0 | 2.0"];

describe("validateNumbers: reading tables", () => {
  it.each([
    // Figures written in a caption line of a table combine like figures of prose.
    [
      "The nominal difference for the number of fully paid ordinary shares between 2018 and 2019 was 54633874.",
      "derived",
      shareCapital,
    ],
    // "$200" repeats the 2019 figure of the row the sentence names: 169 - 200 is not a change from 2018 to 2019.
    [
      "The change in amounts due to related parties from 2018 to 2019 was 31 thousand.",
      "derived",
      relatedParties,
    ],
    [
      "The change in amounts due to related parties from 2018 to 2019 was -31 thousand.",
      "orphan",
      relatedParties,
    ],
    // "The difference between A and B" within a row: A - B in the order the claim names the column headers.
    [
      "For Balance payable as at June 30, 2019, the difference between Workforce reduction and Facility costs was -1903 thousand.",
      "derived",
      restructuring,
    ],
    // A row of totals is averaged along its periods.
    ["The average of net revenues by region was 9189.", "derived", revenues],
    // Shares of one whole add up to a total share.
    ["The total percentage of revenue from Apple and Huawei in 2017 was 45%.", "derived", customers],
    // A ratio written as a percent.
    ["The liability to asset ratio as of December 31, 2019 was 18.34%.", "derived", allocation],
    // The percentage change of a rate, in points.
    ["The percentage change in the WACC between 2018 and 2019 was -0.5%.", "derived", costOfCapital],
  ])("%s -> %s", (text, status, evidence) => {
    expect(checkOf(text, evidence)?.status).toBe(status);
  });
});
