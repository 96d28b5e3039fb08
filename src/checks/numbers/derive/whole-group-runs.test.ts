import { describe, expect, it } from "vitest";
import { checkOf } from "../testing/check-of.js";

// Eight officers: one column longer than the longest run of adjacent figures (6).
const officers = [
  "Table:",
  "Name | Age | Title",
  "A. Smith | 52 | Chief Executive Officer",
  "B. Jones | 47 | Chief Financial Officer",
  "C. Brown | 61 | Chief Operating Officer",
  "D. Lee | 39 | General Counsel",
  "E. Khan | 44 | Controller",
  "F. Ortiz | 58 | Treasurer",
  "G. Wu | 50 | Chief People Officer",
  "H. Moss | 46 | Chief Technology Officer",
].join("\n");

describe("validateNumbers: a whole table column longer than a run", () => {
  it("explains the average of every figure of the column", () => {
    expect(checkOf("The average age of the executive officers was 49.63.", officers)).toMatchObject({
      status: "derived",
      formula: "(52 + 47 + 61 + 39 + 44 + 58 + 50 + 46) / 8 = 49.63",
    });
  });

  it("does not explain a nearby wrong average", () => {
    expect(checkOf("The average age of the executive officers was 49.36.", officers)?.status).toBe(
      "suspicious",
    );
  });

  it("never averages a longer partial run: seven of the eight officers is not the column", () => {
    // (52 + 47 + 61 + 39 + 44 + 58 + 50) / 7 = 50.14
    expect(["orphan", "suspicious"]).toContain(
      checkOf("The average age of the executive officers was 50.14.", officers)?.status,
    );
  });
});
