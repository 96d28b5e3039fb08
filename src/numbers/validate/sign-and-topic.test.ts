import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../verification/layer.js";
import { validateNumbers } from "./validate-numbers.js";

const source = (text: string): EvidenceSource[] => [{ index: 0, origin: "source", text }];

const checkOf = (text: string, evidence: string) =>
  validateNumbers({ text, evidence: source(evidence) }).numbers[0];

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
