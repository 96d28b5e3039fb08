import { describe, expect, it } from "vitest";
import type { EvidenceSource } from "../../../model/layer.js";
import { sameColumn, sameRow } from "./composite-operands.js";
import type { SourceNumber } from "./source-number.js";
import { buildSourcePool } from "./source-numbers.js";

// Two sources, each with two tables and paragraphs of prose between and after them: the row, column and
// paragraph numbers repeat across tables and sources, so only the whole place tells two figures apart.
const document = (name: string) =>
  [
    `${name} opened 3 stores and 4 depots.`,
    "",
    "Table:",
    " | 2019 | 2018",
    "Product A | 1,200 | 1,000",
    "Product B | 300 | 250",
    "",
    "Sales rose 12% to 5,100 units. Costs fell 2%.",
    "",
    "Table:",
    " | 2019 | 2018",
    "Product A | 70 | 60",
    "Product B | 30 | 25",
    "",
    "It employs 41 people in 2 offices.",
  ].join("\n");

const sources: EvidenceSource[] = [
  { index: 0, origin: "source", text: document("Acme") },
  { index: 1, origin: "source", text: document("Beta") },
];

/** The place of a figure written out in full: source, table, row (or column), or paragraph of prose. */
const rowPlace = (n: SourceNumber) =>
  n.table ? `${n.source}:${n.table.block}:r${n.table.row}` : `${n.source}:p${n.paragraph}`;
const columnPlace = (n: SourceNumber) =>
  n.table ? `${n.source}:${n.table.block}:c${n.table.column}` : `${n.source}:p${n.paragraph}`;

describe("sameRow and sameColumn", () => {
  const figures = buildSourcePool(sources).numbers;

  it("read figures from tables and prose in both sources", () => {
    expect(figures.filter((n) => n.table).length).toBeGreaterThanOrEqual(16);
    expect(figures.filter((n) => !n.table).length).toBeGreaterThanOrEqual(10);
  });

  it("say two figures share a row or a column exactly when their whole places are equal", () => {
    let rows = 0;
    let columns = 0;
    for (const a of figures)
      for (const b of figures) {
        expect(sameRow(a, b), `${rowPlace(a)} / ${rowPlace(b)}`).toBe(rowPlace(a) === rowPlace(b));
        expect(sameColumn(a, b), `${columnPlace(a)} / ${columnPlace(b)}`).toBe(
          columnPlace(a) === columnPlace(b),
        );
        if (a !== b && sameRow(a, b)) rows++;
        if (a !== b && sameColumn(a, b)) columns++;
      }
    // Both answers occur: figures of one row, of one column, of one paragraph, and of none.
    expect(rows).toBeGreaterThan(0);
    expect(columns).toBeGreaterThan(0);
  });

  it("never join a table figure and a prose figure whose numbers happen to agree", () => {
    const cell = figures.find((n) => n.table && n.source === 0);
    const prose = figures.find((n) => !n.table && n.source === 0);
    expect(cell && prose).toBeTruthy();
    if (!cell || !prose) return;
    // The prose figure moved into the cell's paragraph: only the table tells them apart.
    const lookalike = { ...prose, paragraph: cell.paragraph };
    expect(sameRow(cell, lookalike)).toBe(false);
    expect(sameColumn(cell, lookalike)).toBe(false);
  });
});
