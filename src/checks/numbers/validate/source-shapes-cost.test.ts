import { describe, expect, it } from "vitest";
import { pairedCostRatio } from "../../../testing/measured-cost.js";
import { validateNumbers } from "./validate-numbers.js";

/**
 * The cost of a validation grows with its evidence, never faster: each source shape here once cost time in
 * the square (or the cube) of its size, and doubling it now at most about doubles the time. Two doublings are
 * timed at once (a size against four times it) and the square root taken: about 2 when linear, 4 or more when
 * each figure reads its line again, or each total its whole table.
 */

const doublingRatio = async (validate: (size: number) => Promise<unknown>, size: number) =>
  Math.sqrt(await pairedCostRatio(validate, size, 4 * size, { warmups: 1, rounds: 3 }));

const validateAgainst = (answer: string, sources: readonly string[]) =>
  validateNumbers({
    text: answer,
    evidence: sources.map((text, index) => ({ index, origin: "source" as const, text })),
  });

/*
 * Figures are grouped and ranked by the line they stand on. A line equal to another (the same paragraph in two
 * sources, or twice in one) is a second string with the same characters, and comparing two such strings reads
 * them whole: done once per figure, a long repeated line cost its length for each of its figures.
 */
const line = (figures: number) => "Revenue $1,000 ".repeat(figures);

/** An answer whose figure no source states: its trace ranks every source figure and tries their runs. */
const answer = "The total revenue was 777.25 dollars.";

describe("numbers: a long line repeated", () => {
  it.each([
    ["in two sources", (figures: number) => [line(figures), line(figures)]],
    ["twice in one source", (figures: number) => [`${line(figures)}\n${line(figures)}`]],
    [
      "twice in one source, after a table whose row it names",
      (figures: number) => [
        `Item | 2019 | 2018\nrevenue total | 1,000 | 900\n\n${line(figures)}\n${line(figures)}`,
      ],
    ],
    [
      "as a table row, its label as long as its cells, in two sources",
      (figures: number) => {
        const table = `Item | 2019 | 2018\n${"revenue of the unit ".repeat(figures / 4)}| ${"1,000 | ".repeat(figures)}`;
        return [table, table];
      },
    ],
  ])(
    "%s: doubling the line at most about doubles the time",
    async (_case, sources) => {
      const ratio = await doublingRatio(async (figures) => validateAgainst(answer, sources(figures)), 20_000);
      expect(ratio).toBeLessThan(2.5);
    },
    60_000,
  );
});

describe("numbers: tables of totals", () => {
  /** Blocks of 24 items and their total, in two periods. */
  const blocks = (count: number) =>
    `Item | 2019 | 2018\n${Array.from(
      { length: count },
      (_, block) =>
        `${Array.from({ length: 24 }, (_, item) => `Item ${block}.${item} revenue | ${1_000 + item * 7} | ${900 + item * 3}`).join("\n")}\nTotal revenue | ${99_000 + block} | ${88_000 + block}`,
    ).join("\n")}`;
  /** Claimed totals no subset of any block's items makes: every total's items are searched for each. */
  const claims = [1, 2, 3, 4, 5].map((k) => `The total revenue was ${123_456 * k} dollars.`).join(" ");

  it("doubling the blocks of items and totals at most about doubles the time of claimed totals", async () => {
    const ratio = await doublingRatio(async (count) => validateAgainst(claims, [blocks(count)]), 50);
    expect(ratio).toBeLessThan(2.5);
  }, 60_000);

  it("doubling a table of nothing but totals at most about doubles the time of a claim naming a sum", async () => {
    const totals = (rows: number) => `Item | 2019 | 2018\n${"Total revenue | 1,000 | 900\n".repeat(rows)}`;
    const ratio = await doublingRatio(async (rows) => validateAgainst(answer, [totals(rows)]), 100);
    expect(ratio).toBeLessThan(2.5);
  }, 60_000);
});
