import { describe, expect, it } from "vitest";
import { namedChange } from "./named-change.js";
import { validateNumbers } from "./validate-numbers.js";

// A made-up filing: amounts in thousands, one row holding a negative figure, one row a figure of 207.
const filing = [
  "Table:",
  " | 2019 | 2018 | 2017",
  "Product revenue | 1,250 | 980 | 870",
  "Service revenue | 415 | 433 | 207",
  "Licence fees | 18 | (270) | 12",
  "Total revenue | 1,683 | 1,143 | 1,089",
  "",
  "Amounts are in thousands of dollars.",
].join("\n");

const check = (answer: string, question: string) =>
  validateNumbers({ text: answer, evidence: [{ index: 0, origin: "source", text: filing }], question })
    .numbers[0];

const question = "What is the change in product revenue from 2018 to 2019?";

describe("a claim naming a row's change between two periods is explained by that row", () => {
  it("flags the wrong sign although another row holds the negated figure", () => {
    // 1,250 - 980 = 270; (270) is the licence fees of 2018, a level of another row.
    expect(check("270 thousand", question)).toMatchObject({ status: "derived" });
    expect(check("-270 thousand", question)).toMatchObject({
      status: "suspicious",
      reason: "sign",
      expected: "270 thousand",
    });
  });

  it("flags a figure another row holds by chance when the named row's change is another", () => {
    // 207 (service revenue of 2017) has the digits of 270 transposed.
    expect(check("207 thousand", question)).toMatchObject({ status: "suspicious", expected: "270 thousand" });
  });

  it("reads the change in a sentence that names the row and the periods", () => {
    const found = validateNumbers({
      text: "Product revenue changed by -270 thousand from 2018 to 2019.",
      evidence: [{ index: 0, origin: "source", text: filing }],
    }).numbers.find((n) => n.text.includes("270"));
    expect(found).toMatchObject({ status: "suspicious", reason: "sign" });
  });
});

describe("figures written as accounting negatives", () => {
  const costs = [
    "Table:",
    " | 2019 | 2018",
    " | €m | €m",
    "Investment income | 433 | 685",
    "Financing costs | (2,088) | (1,074)",
    "",
    "Paragraphs:",
    "Financing costs increased by €1,014 million, driven by higher borrowings.",
  ].join("\n");
  const answer = (text: string, asked: string) =>
    validateNumbers({ text, evidence: [{ index: 0, origin: "source", text: costs }], question: asked })
      .numbers[0];

  it("take the sign of the signed figures in a change, the magnitudes under a stated direction", () => {
    // (2,088) - (1,074) = -1,014: the change is -1,014; the costs "increased by" 1,014, as the text says.
    expect(answer("1014 million", "What was the change in financing costs from 2018 to 2019?")).toMatchObject(
      {
        status: "suspicious",
        reason: "sign",
      },
    );
    expect(
      answer("1014 million", "How much did financing costs increase by between 2018 and 2019?")?.status,
    ).not.toBe("suspicious");
  });
});

describe("namedChange", () => {
  it("reads the two periods, later and earlier, of a change", () => {
    const text = "What was the change in operating profit in 2020/2021 from 2019/2020? -40 million";
    expect(namedChange(text, text.indexOf("-40"), text.length, undefined)).toMatchObject({
      earlier: 2020,
      later: 2021,
    });
  });

  it("leaves a change named latest first, of something else, or of one period to the other checks", () => {
    const at = (text: string) => namedChange(text, text.length, text.length, undefined);
    expect(at("What is the increase / (decrease) in freight costs from 2021 to 2020?")).toBeUndefined();
    expect(at("What is the average change in revenue between 2018 and 2019?")).toBeUndefined();
    expect(at("What was the change in revenue in 2019?")).toBeUndefined();
  });
});
