import { lastTextMemo } from "../../../text/last-text-memo.js";
import { isNil } from "./dash-cells.js";
import { isPercentNumber, type Operand } from "./operands.js";
import { sortValues, type ValueIndex } from "./search.js";
import type { SourceNumber } from "./source-numbers.js";

/** Runs of adjacent figures: along a table row, down a table column, along a line of prose. */
const runGroups = (numbers: readonly SourceNumber[]): SourceNumber[][] => {
  const groups = new Map<string, SourceNumber[]>();
  // Prose lines are keyed by their text itself (one string per line, hashed once), never by a new key
  // string built around it: a 10 KB line would be copied and hashed again for every figure on it.
  const lineGroups = new Map<number, Map<string, SourceNumber[]>>();
  const inOrder: SourceNumber[][] = [];
  // A source's lines: the group of a figure's line, found once per line (the figures of one line follow each
  // other, and a long line repeated is compared with its key once, not once per figure).
  let lineSource: number | undefined;
  let lineGroup = (_text: string): SourceNumber[] => [];
  const add = (key: string, number: SourceNumber) => {
    const group = groups.get(key);
    if (group) group.push(number);
    else {
      const created = [number];
      groups.set(key, created);
      inOrder.push(created);
    }
  };
  for (const number of numbers) {
    if (number.inLabel || isNil(number)) continue;
    if (number.table) {
      // A row of totals is summed or averaged along its periods; down a column a total is not an item.
      add(`row:${number.source}:${number.table.block}:${number.table.row}`, number);
      if (!number.isTotal)
        add(`column:${number.source}:${number.table.block}:${number.table.column}`, number);
    } else if (!number.isTotal) {
      if (number.source !== lineSource) {
        lineSource = number.source;
        const lines = lineGroups.get(number.source) ?? new Map<string, SourceNumber[]>();
        lineGroups.set(number.source, lines);
        lineGroup = lastTextMemo((text) => {
          let group = lines.get(text);
          if (!group) {
            group = [];
            lines.set(text, group);
            inOrder.push(group);
          }
          return group;
        });
      }
      lineGroup(number.lineText).push(number);
    }
  }
  return inOrder.map((group) => group.sort((a, b) => a.id - b.id));
};

/** How a run's operand combines its figures, as stored in `RunTable.combine`. */
const sum = 0;
const average = 1;

/**
 * Every run as numbers only: its group, its first figure, its length, the scale it is read in (an index into
 * the first figure's values) and whether it is a sum or an average, with its value. A line of prose holding
 * 100,000 figures has about 800,000 runs: as objects, with the list of their figures, they took over a
 * second to make and most of a collection to drop, where a search looks at a few of them.
 */
interface RunTable {
  readonly groups: readonly (readonly SourceNumber[])[];
  readonly group: Int32Array;
  readonly start: Int32Array;
  readonly length: Int32Array;
  /** At most four: a figure's value as written and in each scale its document declares (thousands, millions, billions). */
  readonly scale: Uint8Array;
  readonly combine: Uint8Array;
  readonly values: Float64Array;
}

/** The scales a run starting at `first` is read in: one per value of its first figure (none for a zero). */
const scaleCount = (first: SourceNumber): number => (first.number.value === 0 ? 1 : first.values.length);

const scaleOf = (first: SourceNumber, index: number): number =>
  first.number.value === 0 ? 1 : (first.values[index] as number) / first.number.value;

/**
 * The runs of each group, in a fixed order: the whole of a table row or column longer than `maxRun` (its sum
 * and average in each scale), then for each first figure the runs of 3 to `maxRun` figures, each length's sum
 * and average in each scale. Counted first, so each array is made once at its size.
 */
const runTable = (groups: readonly (readonly SourceNumber[])[], maxRun: number): RunTable => {
  const whole = (ordered: readonly SourceNumber[]) =>
    ordered.length > maxRun && ordered[0]?.table !== undefined;
  let count = 0;
  for (const ordered of groups) {
    if (whole(ordered)) count += 2 * scaleCount(ordered[0] as SourceNumber);
    for (let start = 0; start < ordered.length; start++) {
      const lengths = Math.min(maxRun, ordered.length - start) - 2;
      if (lengths > 0) count += 2 * lengths * scaleCount(ordered[start] as SourceNumber);
    }
  }
  const table: RunTable = {
    groups,
    group: new Int32Array(count),
    start: new Int32Array(count),
    length: new Int32Array(count),
    scale: new Uint8Array(count),
    combine: new Uint8Array(count),
    values: new Float64Array(count),
  };
  let at = 0;
  const put = (
    group: number,
    start: number,
    length: number,
    scale: number,
    combine: number,
    value: number,
  ) => {
    table.group[at] = group;
    table.start[at] = start;
    table.length[at] = length;
    table.scale[at] = scale;
    table.combine[at] = combine;
    table.values[at] = value;
    at += 1;
  };
  groups.forEach((ordered, group) => {
    if (whole(ordered)) {
      const first = ordered[0] as SourceNumber;
      const total = ordered.reduce((running, number) => running + number.number.value, 0);
      for (let scale = 0; scale < scaleCount(first); scale++) {
        const value = total * scaleOf(first, scale);
        put(group, 0, ordered.length, scale, sum, value);
        put(group, 0, ordered.length, scale, average, value / ordered.length);
      }
    }
    for (let start = 0; start < ordered.length; start++) {
      const first = ordered[start] as SourceNumber;
      let running = 0;
      for (let length = 1; length <= maxRun && start + length <= ordered.length; length++) {
        running += (ordered[start + length - 1] as SourceNumber).number.value;
        if (length < 3) continue;
        for (let scale = 0; scale < scaleCount(first); scale++) {
          const value = running * scaleOf(first, scale);
          put(group, start, length, scale, sum, value);
          put(group, start, length, scale, average, value / length);
        }
      }
    }
  });
  return table;
};

/** The operand of one run of the table, written field by field in `Operand`'s order (one hidden class). */
const runOperand = (table: RunTable, position: number): Operand => {
  const ordered = table.groups[table.group[position] as number] as readonly SourceNumber[];
  const start = table.start[position] as number;
  const parts = ordered.slice(start, start + (table.length[position] as number));
  const first = parts[0] as SourceNumber;
  return {
    value: table.values[position] as number,
    raw: undefined,
    parts,
    combine: table.combine[position] === sum ? "sum" : "average",
    scale: scaleOf(first, table.scale[position] as number),
    year: undefined,
    rank: first.id,
    isPercent: parts.every(isPercentNumber),
  };
};

/**
 * Sums and averages of runs of 3 to `maxRun` adjacent figures of one table row, one table column or one
 * line ("(3,696+3,861+3,272)/3"), in each scale the figures share, indexed by value. Totals are not items of a
 * column or a line, but a row of totals is summed or averaged along its periods. A table row or column longer
 * than `maxRun` is also summed and averaged whole ("the average age of the officers": every row of the Age
 * column), never in longer partial runs. Used as direct matches only, which keeps the search depth at one.
 * A run's operand is made when a search first finds it, and kept.
 */
export const indexRunOperands = (numbers: readonly SourceNumber[], maxRun: number): ValueIndex => {
  const table = runTable(runGroups(numbers), maxRun);
  const { sorted, order } = sortValues(table.values);
  const made = new Map<number, Operand>();
  return {
    sorted,
    order,
    operandAt: (position) => {
      if (position < 0 || position >= table.values.length) return undefined;
      let operand = made.get(position);
      if (!operand) {
        operand = runOperand(table, position);
        made.set(position, operand);
      }
      return operand;
    },
  };
};
