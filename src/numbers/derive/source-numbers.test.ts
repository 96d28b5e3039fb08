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
  ] as const)("reads the period of table figures: %j", (lines, expected) => {
    for (const [figure, year] of expected) expect(yearOf(lines.join("\n"), figure)).toBe(year);
  });

  it('reads "per cent" in a line as a percent context', () => {
    const numbers = buildSourcePool([
      { index: 0, origin: "source", text: "Margins rose 4.5 per cent." },
    ]).numbers;
    expect(numbers[0]?.percentContext).toBe(true);
  });
});
