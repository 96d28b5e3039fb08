import { describe, expect, it } from "vitest";
import { validateNumbers } from "./validate-numbers.js";

// A made-up filing: one table whose columns are years, its scale stated under it.
const filing = [
  "Table:",
  " | 2019 | 2018 | 2017",
  "Widget revenue | 1,250 | 980 | 870",
  "Gadget revenue | 415 | 433 | 390",
  "Total revenue | 1,665 | 1,413 | 1,260",
  "",
  "Amounts are in thousands of dollars.",
].join("\n");

const check = (answer: string, question: string) =>
  validateNumbers({
    text: answer,
    evidence: [{ index: 0, origin: "source", text: filing }],
    question,
  }).numbers[0];

describe("a bare figure answers the question: the question's wording is its claim's", () => {
  it("finds an average the question names", () => {
    const found = check("1115 thousand", "What is the average widget revenue in 2018 and 2019?");
    expect(found).toMatchObject({ status: "derived", derivation: "average" });
    expect(found?.formula).toContain("/ 2");
  });

  it("keeps a wrong average flagged", () => {
    const found = check("1151 thousand", "What is the average widget revenue in 2018 and 2019?");
    expect(["suspicious", "orphan"]).toContain(found?.status);
  });

  it("takes an unsigned difference as a distance", () => {
    const found = check("270 thousand", "What is the difference in widget revenue between 2018 and 2019?");
    expect(found).toMatchObject({ status: "derived", derivation: "difference" });
  });

  it("takes the sign of a difference that names the later period first", () => {
    // 415 - 433 = -18: "between 2019 and 2018" is 2019 - 2018 in the order named and as a change.
    const asked = "What is the difference in gadget revenue between 2019 and 2018?";
    expect(check("-18 thousand", asked)).toMatchObject({ status: "derived", derivation: "difference" });
    expect(["suspicious", "orphan"]).toContain(check("18 thousand", asked)?.status);
    // Named earlier first, the order named and the change disagree: the distance stands.
    expect(
      check("18 thousand", "What is the difference in gadget revenue between 2018 and 2019?"),
    ).toMatchObject({
      status: "derived",
    });
  });

  it("catches a change of the wrong sign", () => {
    const found = check("-270 thousand", "What is the change in widget revenue from 2018 to 2019?");
    expect(found).toMatchObject({ status: "suspicious", reason: "sign" });
  });

  it("reads a sentence by its own words, not the question's", () => {
    // The sentence says "total": the question's "average" does not explain its figure.
    const found = validateNumbers({
      text: "Total revenue was 1115 thousand.",
      evidence: [{ index: 0, origin: "source", text: filing }],
      question: "What is the average widget revenue in 2018 and 2019?",
    }).numbers[0];
    expect(found?.status).not.toBe("exact");
  });
});

describe("a bare four-digit figure answering a question about an amount is that amount, not a year", () => {
  it("traces a correct one", () => {
    // 1,250 + 870 = 2,120, a figure that could be read as a year.
    const found = check("2120", "What is the total widget revenue in 2019 and 2017?");
    expect(found).toMatchObject({ status: "derived", derivation: "sum" });
  });

  it("flags a wrong one instead of skipping it as a year", () => {
    // Two digits of 2,120 transposed.
    const found = check("2102", "What is the total widget revenue in 2019 and 2017?");
    expect(["suspicious", "orphan"]).toContain(found?.status);
  });

  it("keeps a year that answers a question about a period", () => {
    expect(check("2019", "In which year was widget revenue the highest?")).toBeUndefined();
    expect(check("2017", "When was total revenue lowest?")).toBeUndefined();
    expect(check("2018", "Which FY has the higher gadget revenue?")).toBeUndefined();
    expect(check("2027", "What was the last fiscal year of expiration for the credits?")).toBeUndefined();
  });
});
