import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { labelFinder } from "./row-labels.js";

/** What the finder must find: every label `line.includes` finds. */
const expectedLabels = (labels: readonly string[], line: string): Set<string> =>
  new Set(labels.filter((label) => line.includes(label)));

describe("labelFinder", () => {
  it("finds the row labels a line holds, wherever they start and whatever their first character", () => {
    const find = labelFinder(["Revenue", "Net income", "Éléments", "cost of sales", "Net sales"]);
    expect(find("Revenue and Net income rose; Éléments fell.")).toEqual([
      "Revenue",
      "Net income",
      "Éléments",
    ]);
    expect(find("the cost of sales grew while Net sales fell")).toEqual(["cost of sales", "Net sales"]);
    expect(find("revenue, net income: nothing here matches in case")).toEqual([]);
    // A label cut off by the line's end is not held.
    expect(find("Net incom")).toEqual([]);
  });

  it("gives each line the same list when asked again", () => {
    const find = labelFinder(["Total assets"]);
    const first = find("Total assets grew.");
    expect(find("Total assets grew.")).toBe(first);
  });

  it("finds what `includes` finds, for labels of four characters or more", () => {
    const alphabet = fc.constantFrom("R", "r", "e", "v", "N", "n", " ", "É", "é", "ü", "T", "t", "o");
    const label = fc.array(alphabet, { minLength: 4, maxLength: 7 }).map((chars) => chars.join(""));
    fc.assert(
      fc.property(
        fc.array(label, { minLength: 1, maxLength: 6 }),
        fc.array(fc.oneof(alphabet, label), { maxLength: 30 }),
        (labels, pieces) => {
          const line = pieces.join("");
          const found = labelFinder(labels)(line);
          expect(new Set(found)).toEqual(expectedLabels(labels, line));
          expect(found.length).toBe(new Set(found).size);
        },
      ),
      { numRuns: 500 },
    );
  });
});
