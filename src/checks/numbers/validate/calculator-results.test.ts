import { describe, expect, it } from "vitest";
import { validateNumbers } from "./validate-numbers.js";

// A ratio the tool computed to 40 significant digits, as a model would record it.
const calculations = [{ expression: "7 / 9 * 100", result: "77.77777777777777777777777777777777777778" }];

const statusOf = (text: string) =>
  validateNumbers({ text, evidence: [], calculations }).numbers.map((n) => n.status);

describe("a recorded calculator result is evidence for the answer's rounding of it", () => {
  it("traces a percent rounded from the tool's unit-free result", () => {
    expect(statusOf("The completion rate was 77.78%.")).toEqual(["close"]);
    expect(statusOf("The completion rate was 77.8%.")).toEqual(["close"]);
  });

  it("still flags a percent the tool did not give", () => {
    expect(statusOf("The completion rate was 76.92%.")).toEqual(["suspicious"]);
  });
});
