import { describe, expect, it } from "vitest";
import { buildSourcePool } from "./source-numbers.js";

const table = [
  "Table:",
  " | 2019 | 2018",
  " | $'000 | $'000",
  "Product A | 1,200 | 1,000",
  "Product B | (300) | 250",
  "Total | 900 | 1,250",
  "",
  "Revenue was $12.6 million in 2018, up from $10.1 million in 2017.",
].join("\n");

describe("buildSourcePool", () => {
  const pool = buildSourcePool([{ index: 0, origin: "source", text: table }]);
  const byText = (text: string) => pool.numbers.find((n) => n.number.text === text);

  it("reads table cells with their row, column, period and the declared scale", () => {
    expect(byText("1,200")).toMatchObject({ year: 2019, values: [1200, 1_200_000], isTotal: false });
    expect(byText("1,200")?.table).toMatchObject({ column: 1, label: "product a" });
    expect(byText("(300)")).toMatchObject({ year: 2019, values: [-300, -300_000] });
    expect(pool.scaleUnknown).toBe(false);
  });

  it("marks total rows", () => {
    expect(byText("900")?.isTotal).toBe(true);
  });

  it("gives prose figures their written scale and the year written next to them", () => {
    expect(byText("$12.6 million")).toMatchObject({ values: [12_600_000], year: 2018 });
    expect(byText("$10.1 million")).toMatchObject({ values: [10_100_000], year: 2017 });
  });

  it("does not read labels or header years as quantities", () => {
    expect(pool.numbers.map((n) => n.number.text)).not.toContain("2019");
  });

  it("bounds how many figures it reads", () => {
    expect(
      buildSourcePool([{ index: 0, origin: "source", text: table }], { maxNumbers: 3 }).numbers,
    ).toHaveLength(3);
  });

  it('reads a "Note" column as references to notes, never as amounts to combine', () => {
    const withNotes = [" |  | 2019 | 2018", " | Note | £m | £m", "Investments | 3 | 1,216.0 | 1,212.9"].join(
      "\n",
    );
    const numbers = buildSourcePool([{ index: 0, origin: "source", text: withNotes }]).numbers;
    expect(numbers.find((n) => n.number.text === "3")?.inLabel).toBe(true);
    expect(numbers.find((n) => n.number.text === "1,216.0")).toMatchObject({ inLabel: false, year: 2019 });
  });

  const yearOf = (text: string, figure: string) =>
    buildSourcePool([{ index: 0, origin: "source", text }]).numbers.find((n) => n.number.text === figure)
      ?.year;

  it.each([
    // A header cell names the period of the empty header cells after it (a spanned header).
    [
      [" | Fiscal Year 2018 |  | Fiscal Year 2017 | ", "APAC | $479,987 | 40.0% | $288,764 | 38.1%"],
      [
        ["40.0%", 2018],
        ["38.1%", 2017],
      ],
    ],
    // A row labelled with a year alone.
    [
      [" | Operating Leases | Finance Leases", "2021 | $138 | $6", "2022 | 135 | 6"],
      [
        ["$138", 2021],
        ["135", 2022],
      ],
    ],
    // A line naming only a period heads the rows after it.
    [
      [
        " | External valuation % | Internal valuation %",
        "Year ended 30 June 2019 |  | ",
        "Leasehold | 23% | 77%",
        "Year ended 30 June 2018 |  | ",
        "Freehold | 27% | 73%",
      ],
      [
        ["23%", 2019],
        ["27%", 2018],
      ],
    ],
    // A row labelled with a date ("as at June 30, 2019") is of that date's year.
    [
      [
        "Fiscal 2017 Restructuring Plan | Workforce reduction | Facility costs | Total",
        "Balance payable as at June 30, 2017 | $10,045 | $1,369 | $11,414",
        "Balance payable as at June 30, 2019 | $1,046 | $2,949 | $3,995",
      ],
      [
        ["$11,414", 2017],
        ["$3,995", 2019],
      ],
    ],
    // A unit in the label cell ("(1,000)") does not keep a line of years from being a header.
    [
      [
        "Number of shares (1,000) | 2019 | 2018 | 2017",
        "Granted during the period | 1,001.1 | 907.3 | 866.6",
      ],
      [
        ["1,001.1", 2019],
        ["907.3", 2018],
      ],
    ],
    // Dated header cells of one year still give each column its year.
    [
      [
        " | Estimated at June 30, 2019 | Adjustments | Final as of December 31, 2019",
        "Total fair value | 3,757 | 20 | 3,777",
      ],
      [
        ["3,757", 2019],
        ["3,777", 2019],
      ],
    ],
  ] as const)("reads the period of table figures: %j", (lines, expected) => {
    for (const [figure, year] of expected) expect(yearOf(lines.join("\n"), figure)).toBe(year);
  });

  it('reads "per cent" in a line as a percent context', () => {
    const numbers = buildSourcePool([
      { index: 0, origin: "source", text: "Margins rose 4.5 per cent." },
    ]).numbers;
    expect(numbers[0]?.percentContext).toBe(true);
  });

  it.each([
    ["Margins rose 4.5 PER CENT.", true],
    ["Margins rose 4.5 Percent this year.", true],
    ["Margins rose by 4.5, or 3%, this year.", true],
    ["Margins rose 4.5 points; supercent is no word.", false],
    ["Margins rose 4.5 points per year.", false],
  ] as const)("reads a percent context in any case of the words, and only there: %s", (text, expected) => {
    const numbers = buildSourcePool([{ index: 0, origin: "source", text }]).numbers;
    expect(numbers[0]?.percentContext).toBe(expected);
  });

  it("reads the figures of a line after lines without figures as it reads them alone", () => {
    // Lines with no figure (prose, a row of words) are passed over; they change nothing for the lines after.
    const alone = poolOf(["Revenue was $12.6 million in 2018, up 5 per cent."]);
    const after = poolOf([
      "The company grew.",
      "",
      "Its board met twice.",
      "Revenue was $12.6 million in 2018, up 5 per cent.",
    ]);
    const view = (numbers: typeof alone) =>
      numbers.map(({ number, values, year, isTotal, percentContext, countedNoun, lineText }) => ({
        text: number.text,
        values,
        year,
        isTotal,
        percentContext,
        countedNoun,
        lineText,
      }));
    expect(view(after)).toEqual(view(alone));
    expect(view(after).length).toBeGreaterThan(0);
  });

  const poolOf = (lines: readonly string[]) =>
    buildSourcePool([{ index: 0, origin: "source", text: lines.join("\n") }]).numbers;

  it("reads the quarter or date of a column or a row within its year", () => {
    const quarters = poolOf([
      " | First | Second | Third | Fourth",
      "Revenues | 94,888 | 96,037 | 88,495 | 84,380",
    ]);
    expect(quarters.map((n) => n.periodInYear)).toEqual([331, 631, 931, 1231]);
    const months = poolOf([
      "Period | Shares Purchased",
      "January 26, 2019 - February 22, 2019 | 262",
      "February 23, 2019 - March 22, 2019 | 3,380",
    ]);
    expect(months.map((n) => n.periodInYear)).toEqual([126, 223]);
    // A line of quarters under a line of years: each column has both.
    const both = poolOf([
      " | 2019 | 2019 | 2018 | 2018",
      " | Q1 | Q2 | Q1 | Q2",
      "Revenue | 10 | 20 | 30 | 40",
    ]);
    expect(both.map((n) => [n.year, n.periodInYear])).toEqual([
      [2019, 331],
      [2019, 631],
      [2018, 331],
      [2018, 631],
    ]);
  });

  it("reads a table line with words and figures in its first cell only as a sentence, not a label", () => {
    const numbers = poolOf([
      " | 2019 | 2018",
      "1,258,690,067 fully paid ordinary shares (2018: 1,313,323,941) |  | ",
      "Balance at start of period | 1,313.3 | 1,294.4",
    ]);
    const caption = numbers.find((n) => n.number.text === "1,313,323,941");
    expect(caption).toMatchObject({ inLabel: false, year: 2018 });
    expect(caption?.table).toBeUndefined();
  });

  it("gives a sentence repeating a figure of the row it names that figure's year", () => {
    const numbers = poolOf([
      " | 2018 | 2019",
      "Amounts due to related parties | 169 | 200",
      "",
      "Amounts due to related parties of $200 (December 31, 2018: $169) are expenses paid by a related party.",
    ]);
    expect(numbers.find((n) => n.number.text === "$200")?.year).toBe(2019);
  });

  it("reads the words heading each column", () => {
    const numbers = poolOf([
      "Fiscal 2017 Restructuring Plan | Workforce reduction | Facility costs | Total",
      "Balance payable as at June 30, 2019 | $1,046 | $2,949 | $3,995",
    ]);
    expect(numbers.map((n) => n.table?.header)).toEqual(["workforce reduction", "facility costs", "total"]);
  });
});
