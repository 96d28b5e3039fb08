import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { findPeriods, periodKey, periodPatterns, samePeriod } from "./periods.js";

const keysOf = (text: string) => findPeriods(text).map((period) => periodKey(period));

describe("findPeriods", () => {
  it.each([
    ["Q3 2025", "quarter 3 of 2025"],
    ["third quarter of 2025", "quarter 3 of 2025"],
    ["3rd quarter, 2025", "quarter 3 of 2025"],
    ["3Q25", "quarter 3 of 2025"],
    ["Q3'25", "quarter 3 of 2025"],
    ["Q3 of 2025", "quarter 3 of 2025"],
    ["Q3 FY2025", "quarter 3 of FY2025"],
    ["fiscal third quarter of 2025", "quarter 3 of FY2025"],
    ["third quarter of fiscal 2025", "quarter 3 of FY2025"],
    ["H1 2024", "half 1 of 2024"],
    ["1H 2024", "half 1 of 2024"],
    ["first half of 2024", "half 1 of 2024"],
    ["first-half 2024", "half 1 of 2024"],
    ["H2 FY24", "half 2 of FY2024"],
    ["FY2025", "FY2025"],
    ["FY 25", "FY2025"],
    ["fiscal year 2025", "FY2025"],
    ["fiscal 2025", "FY2025"],
    ["September 2025", "month 9 of 2025"],
    ["Sept. 2025", "month 9 of 2025"],
    ["Sep 2025", "month 9 of 2025"],
    ["in December", "month 12"],
    ["Q4", "quarter 4"],
    ["FY1998", "FY1998"],
    ["Q1 '99", "quarter 1 of 1999"],
  ])("reads %j as %s", (text, key) => {
    expect(keysOf(text)).toEqual([key]);
  });

  it.each([
    "a third of 2025's users",
    "we may see growth",
    "the march of progress",
    "in 2025 the quarter ended",
    "sequence Q5 and H3",
    "model A320",
  ])("finds no period in %j", (text) => {
    expect(findPeriods(text)).toEqual([]);
  });

  it("gives spans in the text, shifted by the offset, longest mention first", () => {
    const text = "Sales in Q3 FY2025 rose.";
    const [period] = findPeriods(text, 100);
    expect(period?.span).toEqual({ start: 109, end: 118 });
    expect(findPeriods(text)).toHaveLength(1);
  });
});

describe("samePeriod", () => {
  const one = (text: string) => {
    const [period] = findPeriods(text);
    if (period === undefined) throw new Error(`no period in ${text}`);
    return period;
  };

  it.each([
    ["Q3 2025", "third quarter of 2025", true],
    ["Q3", "third quarter of 2025", true],
    ["Q3 2024", "third quarter of 2025", false],
    ["Q2 2025", "third quarter of 2025", false],
    ["Q3 2025", "Q3", false],
    ["Q3 2025", "Q3 FY2025", false],
    ["H1 2024", "first half of 2024", true],
    ["Sept. 2025", "September 2025", true],
    ["September 2025", "Q3 2025", false],
  ] as const)("%j against %j: %s", (claimed, stated, same) => {
    expect(samePeriod(one(claimed), one(stated))).toBe(same);
  });
});

describe("the period patterns' needs", () => {
  // Texts of period words and their neighbours, in any order and case.
  const piece = fc.constantFrom(
    "fiscal",
    "Fiscal",
    "first",
    "Second",
    "third",
    "4th",
    "quarter",
    "QUARTER",
    "Quarter",
    "half",
    "Half",
    "HALF",
    "H1",
    "2H",
    "Q3",
    "3q",
    "FY",
    "fy",
    "2025",
    "25",
    "'",
    "-",
    " ",
    "  ",
    "\n",
    "of",
    "the",
    "year",
    "May",
    "Sept.",
    "x",
    "1",
  );
  it("hold in every text a pattern matches, so skipping a pattern whose needs fail finds the same periods", () => {
    const gated = periodPatterns.filter((pattern) => pattern.needs !== undefined);
    expect(gated.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10, size: "max" }), (pieces) => {
        const text = pieces.join("");
        for (const pattern of gated) {
          const regex = new RegExp(pattern.regex.source, pattern.regex.flags.replace("g", ""));
          if (regex.test(text)) expect(pattern.needs?.test(text)).toBe(true);
        }
      }),
      { numRuns: 4000, seed: 20261126 },
    );
  });

  it("still finds the periods of the patterns they guard", () => {
    expect(keysOf("fiscal third quarter 2025 and the second half of 2024")).toEqual([
      "quarter 3 of FY2025",
      "half 2 of 2024",
    ]);
  });
});
