import { describe, expect, it } from "vitest";
import { validateNumbers } from "./validate-numbers.js";

const checksOf = (text: string, source: string) =>
  validateNumbers({ text, evidence: [{ index: 0, origin: "source", text: source }] }).numbers;

describe("a derived number's operation", () => {
  const revenue = "Revenue was $4.2 million in 2022 and $5.0 million in 2023.";

  it("is reported with it", () => {
    expect(checksOf("Revenue grew by $0.8 million from 2022 to 2023.", revenue)).toMatchObject([
      { text: "$0.8 million", status: "derived", derivation: "difference" },
    ]);
  });

  it("a calculation written out in the text is one", () => {
    expect(checksOf("The gap was 5.0 - 4.2 = 0.8 million.", revenue).at(-1)).toMatchObject({
      status: "derived",
      derivation: "written-calculation",
    });
  });
});

describe("a figure written as a level", () => {
  const source =
    "Revenue of the North division rose to $805.1 million in 2023. Revenue of the South division fell to $60.6 million in 2023.";

  it("is not explained by a change of two other figures ('rose to $744.5 million' is no 805.1 - 60.6)", () => {
    const level = checksOf("Revenue of the North division rose to $744.5 million in 2023.", source).find(
      (check) => check.text === "$744.5 million",
    );
    expect(["orphan", "suspicious"]).toContain(level?.status);
  });

  it("a change amount of the same figures is still derived ('higher ... by $744.5 million')", () => {
    expect(
      checksOf("North revenue was higher than South revenue by $744.5 million in 2023.", source),
    ).toMatchObject([{ text: "$744.5 million", status: "derived", derivation: "difference" }]);
  });
});
