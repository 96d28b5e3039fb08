import type { EvidenceSource } from "../../../model/layer.js";
import { hasDigit, isAsciiDigit, isAsciiLetterOrDigit } from "../../../text/ascii.js";
import { lastTextMemo } from "../../../text/last-text-memo.js";
import { extractNumbers } from "../extract/extract-numbers.js";
import { declaredScales } from "../extract/scale-words.js";
import { type ExtractedNumber, type ExtractOptions, isQuantity, numberWith } from "../extract/types.js";
import { makeColumnHeaders } from "./column-headers.js";
import { countedNoun } from "./counted-noun.js";
import { dashCells } from "./dash-cells.js";
import { periodColumns, periodInYear, periodLike } from "./periods-in-year.js";
import { respectivelyYears } from "./respectively-years.js";
import { labelFinder } from "./row-labels.js";
import type { SourceNumber, TablePlace } from "./source-number.js";

export type { SourceNumber } from "./source-number.js";

export interface SourcePool {
  readonly numbers: readonly SourceNumber[];
  /** True when no evidence text declares a scale ("in millions", "$'000", "€m"). */
  readonly scaleUnknown: boolean;
  /** True when the evidence holds more quantities than `maxNumbers`: the figures after them were not read. */
  readonly truncated: boolean;
}

/** Most quantities read from the evidence by default: a 10 MB filing holds about 200,000. */
export const defaultMaxSourceNumbers = 250_000;

interface Line {
  readonly text: string;
  readonly start: number;
}

const linesOf = (text: string): Line[] => {
  const lines: Line[] = [];
  let start = 0;
  for (const piece of text.split("\n")) {
    lines.push({ text: piece, start });
    start += piece.length + 1;
  }
  return lines;
};

const isTableLine = (line: string): boolean => line.includes("|");

/** A table line's text before its first "|" (all of it without one): its label cell, without splitting every cell. */
const firstCell = (line: string): string => {
  const bar = line.indexOf("|");
  return bar < 0 ? line : line.slice(0, bar);
};

/** A table line whose first cell holds words and a figure and whose other cells are empty. */
const isCaption = (line: string): boolean => {
  if (!onlyFirstCell.test(line)) return false;
  const first = firstCell(line);
  return wordOfThree.test(first) && hasDigit(first);
};

const onlyFirstCell = /^[^|]*(?:\|\s*)+$/;

/** Offsets of the "|" separators of a table line, in order. */
const separatorsOf = (line: string): number[] => {
  const offsets: number[] = [];
  for (let at = line.indexOf("|"); at >= 0; at = line.indexOf("|", at + 1)) offsets.push(at);
  return offsets;
};

/**
 * The cell an offset falls in: the number of separators before it, found by halves (a row of thousands of
 * cells counted from its start for each of its figures took time in the square of its length).
 */
const cellIndexAt = (separators: readonly number[], offset: number): number => {
  let low = 0;
  let high = separators.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((separators[middle] as number) < offset) low = middle + 1;
    else high = middle;
  }
  return low;
};

// Made once: a regular expression literal is a new object each time it is evaluated.
const fullYears = /(?<![\d,.])(?:19|20)\d{2}(?![\d,.])/g;
const shortFiscalYears = /\bFY?\s?'?(\d{2})\b/gi;

/** The years a cell names: "2019", "F19", "FY18", "FY'17". */
const yearsIn = (cell: string): number[] => [
  ...(cell.match(fullYears) ?? []).map(Number),
  // "F19", "FY18", "FY'17": fiscal years written short.
  ...[...cell.matchAll(shortFiscalYears)].map((match) => 2000 + Number(match[1])),
];

/** The one year a text names ("Year ended 30 June 2019", "FY19"), or undefined when it names none or several. */
const onlyYearIn = (text: string): number | undefined => {
  const years = new Set(yearsIn(text));
  const [year] = years;
  return years.size === 1 ? year : undefined;
};

/**
 * Column index to year, when a header line of a table names years in its cells. A year heads the empty cells
 * after it too ("| Fiscal Year 2018 | | Fiscal Year 2017 |" over "| Net Sales | % of Total | Net Sales | ..."):
 * a header cell spans the columns up to the next one.
 */
const yearColumns = (line: string): Map<number, number> | undefined => {
  const cells = line.split("|");
  const years = new Map<number, number>();
  let others = 0;
  let spanning: number | undefined;
  cells.forEach((cell, column) => {
    const found = yearsIn(cell);
    // "2018/2019": a fiscal year spanning two calendar years is known by its later one.
    if (found.length > 0) {
      spanning = Math.max(...found);
      years.set(column, spanning);
    } else if (column > 0 && hasDigit(cell.replace(oneOrTwoDigits, ""))) others += 1;
    else if (cell.trim().length > 0) spanning = undefined;
    else if (spanning !== undefined && column > 0) years.set(column, spanning);
  });
  return new Set(years.values()).size >= 2 && others === 0 ? years : undefined;
};

/**
 * A table line that only names one period ("Year ended 30 June 2019 | |", "| | | Fiscal 2019 |"): the rows
 * after it, up to the next such line, are of that year.
 */
const sectionYear = (line: string, options: ExtractOptions): number | undefined => {
  const year = onlyYearIn(line);
  if (year === undefined || extractNumbers(line, options).some(isQuantity)) return undefined;
  return year;
};

// Expressions read for each line, cell or figure of a source, made once: a regular expression literal is a new
// object each time it is evaluated.
/** A row label that is a year, maybe a fiscal one: "2019", "Fiscal year 2019", "FY2019". */
const yearLabel = /^(?:fiscal\s+(?:year\s+)?|fy\s?)?((?:19|20)\d{2})$/i;
const notesWord = /\bnotes?\b/i;
const notesCell = /^\s*notes?\s*$/i;
/** A year within 30 other characters after a figure of prose, its digits then taken. */
const yearSoonAfter = /^[^\d]{0,30}?\b((?:19|20)\d{2})\b/;
const percentMark = /%|\bper\s?cent/i;
const perCent = /\bper\s?cent/i;
/** "total" written before a figure, no other figure between them. */
const totalBefore = /\btotal\b[^\d]*$/i;
const wordOfThree = /\p{L}{3,}/u;
const oneOrTwoDigits = /\b\d{1,2}\b/g;

/**
 * A row labelled with a year alone ("2021 | $138 | $6", "Fiscal 2020 | ...") or with one date ("Balance
 * payable as at June 30, 2019 | ..."): its figures are of that year. `period` is the period within a year
 * the label names, if any (see `periodInYear`).
 */
const rowYear = (label: string, period: number | undefined): number | undefined => {
  const match = yearLabel.exec(label.trim());
  if (match?.[1]) return Number(match[1]);
  return period === undefined ? undefined : onlyYearIn(label);
};

/** Column index to year for header cells naming one year each ("Estimated at June 30, 2019"). */
const cellYears = (line: string): Map<number, number> => {
  const years = new Map<number, number>();
  line.split("|").forEach((cell, column) => {
    const year = onlyYearIn(cell);
    if (year !== undefined) years.set(column, year);
  });
  return years;
};

/** Columns of a table header headed "Note" or "Notes": their figures refer to notes, they are not amounts. */
const referenceColumns = (line: string): Set<number> | undefined => {
  if (!notesWord.test(line)) return undefined;
  const columns = new Set<number>();
  line.split("|").forEach((cell, column) => {
    if (notesCell.test(cell)) columns.add(column);
  });
  return columns.size > 0 ? columns : undefined;
};

/** A cheap test that a table line may name years (a header), before reading its cells. */
const yearLike = /(?<![\d,.])(?:19|20)\d{2}(?![\d,.])|\bFY?\s?'?\d{2}\b/i;

const isWordCode = (code: number) => isAsciiLetterOrDigit(code) || code === 95;

/**
 * `/\b((?:19|20)\d{2})\b[^\d]{0,30}$/` on `text`, without trying it from every offset: the year it finds is
 * the last digits of the text, with at most 30 other characters after them.
 */
const yearAtEnd = (text: string): number | undefined => {
  let last = text.length - 1;
  while (last >= 0 && !isAsciiDigit(text.charCodeAt(last))) last -= 1;
  if (last < 3 || text.length - 1 - last > 30) return undefined;
  const first = last - 3;
  for (let at = first; at <= last; at++) if (!isAsciiDigit(text.charCodeAt(at))) return undefined;
  // \b before the year (a non-word character or the start) and after it (a non-word character or the end).
  if (first > 0 && isWordCode(text.charCodeAt(first - 1))) return undefined;
  if (last + 1 < text.length && isWordCode(text.charCodeAt(last + 1))) return undefined;
  const century = text.slice(first, first + 2);
  return century === "19" || century === "20" ? Number(text.slice(first, last + 1)) : undefined;
};

/** The year a figure of prose refers to: "56.7 million in 2018", "in 2019, ... 44.1". */
const yearNear = (line: string, start: number, end: number): number | undefined => {
  const after = yearSoonAfter.exec(line.slice(end, end + 40));
  if (after?.[1]) return Number(after[1]);
  return yearAtEnd(line.slice(Math.max(0, start - 40), start));
};

/** Table blocks (numbered as `readSource` numbers them) with a "%" in any of their lines. */
const tableBlocksWithPercent = (text: string): Set<number> => {
  const blocks = new Set<number>();
  let block = 0;
  let previousWasTable = false;
  for (const line of text.split("\n")) {
    const table = isTableLine(line);
    if (table && !previousWasTable) block += 1;
    previousWasTable = table;
    if (table && percentMark.test(line)) blocks.add(block);
  }
  return blocks;
};

const totalLabel = /\b(?:total|totals|overall|aggregate|in all|altogether|combined)\b/i;

const candidateValues = (number: ExtractedNumber, scales: readonly number[]): number[] => {
  if (number.scaleWritten || number.kind === "percent" || number.kind === "percentage-points")
    return [number.scaled];
  const values = [number.value];
  for (const scale of scales) if (scale !== 1) values.push(number.value * scale);
  return values;
};

/**
 * Whether a heading names percents as the unit of its figures: "(%)", "% change", "Percent of revenue". A
 * percent with a figure ("tax at the statutory rate of 25%") is a fact of the label, not the unit of its row; "(in
 * millions, except percentages)" states the scale of the other figures.
 */
export const namesPercent = (heading: string): boolean => {
  const except = heading.search(/\bexcept\b/);
  return percentUnit.test(except < 0 ? heading : heading.slice(0, except));
};

const percentUnit = /(?<![\d.]\s?)%|(?<!\d\s?)\bper\s?cent(?:age)?\b/;

const tablePlace = (
  block: number,
  row: number,
  column: number,
  label: string,
  header: string | undefined,
): TablePlace => ({ block, row, column, label, header });

const withDashCells = (figures: ExtractedNumber[], line: string): ExtractedNumber[] => {
  const zeros = dashCells(line);
  return zeros.length === 0 ? figures : [...figures, ...zeros].sort((a, b) => a.span.start - b.span.start);
};

/**
 * The scales each table declares in its own lines ("$'000" over its columns, "(in millions, except per share
 * data)" in its header), by block number (counted as `readSource` counts them). A table that declares a scale
 * is read in that scale alone, not in every scale the text mentions elsewhere: a prose "$9.8 million" does not
 * make the cells of a "$'000" table millions. A table that declares none is read in the text's scales.
 */
const tableScales = (lines: readonly Line[]): Map<number, number[]> => {
  const scales = new Map<number, number[]>();
  let block = 0;
  let blockLines: string[] = [];
  const close = () => {
    if (blockLines.length === 0) return;
    const declared = declaredScales(blockLines.join("\n"));
    if (declared.length > 0) scales.set(block, declared);
    blockLines = [];
  };
  let previousWasTable = false;
  for (const line of lines) {
    const tableLine = isTableLine(line.text);
    if (tableLine && !previousWasTable) {
      close();
      block += 1;
    }
    if (tableLine) blockLines.push(line.text);
    previousWasTable = tableLine;
  }
  close();
  return scales;
};

/** The quantities of one evidence text, and whether it declares no scale. */
export interface SourceReading {
  readonly numbers: readonly SourceNumber[];
  readonly scaleUnknown: boolean;
}

/**
 * How a pool reads one evidence text: its figures numbered from `firstId`, each naming `evidence.index` as its
 * source (`readSource`, or a cache of its readings: see `makeSourceReadings`).
 */
export type SourceReader = (
  evidence: EvidenceSource,
  firstId: number,
  options: ExtractOptions,
) => SourceReading;

/**
 * A figure of a kept reading placed in another pool: the same figure with another id and source index. Written
 * out field by field, in `SourceNumber`'s order, so the copies share the hidden class of the figures read.
 */
export const atPlace = (number: SourceNumber, id: number, source: number): SourceNumber => ({
  id,
  number: number.number,
  source,
  values: number.values,
  lineText: number.lineText,
  paragraph: number.paragraph,
  table: number.table,
  year: number.year,
  periodInYear: number.periodInYear,
  isTotal: number.isTotal,
  inLabel: number.inLabel,
  scaleUnknown: number.scaleUnknown,
  percentContext: number.percentContext,
  rowHeading: number.rowHeading,
  countedNoun: number.countedNoun,
});

/** Reads every quantity of one evidence text, with its table position, column year and total label. */
export const readSource: SourceReader = (
  evidence: EvidenceSource,
  firstId: number,
  options: ExtractOptions,
): { numbers: SourceNumber[]; scaleUnknown: boolean } => {
  const scales = declaredScales(evidence.text);
  const numbers: SourceNumber[] = [];
  const percentBlocks = tableBlocksWithPercent(evidence.text);
  let block = 0;
  let years: Map<number, number> | undefined;
  let periods: Map<number, number> | undefined;
  let headers = makeColumnHeaders();
  let section: number | undefined;
  let noteColumns: Set<number> | undefined;
  let rowHeading: string | undefined;
  let row = 0;
  let previousWasTable = false;
  let paragraph = 0;
  const lines = linesOf(evidence.text);
  // Whether a column's header names percents, read once per header: every figure of its column asks.
  const headerPercent = new Map<string, boolean>();
  const headerNamesPercent = (header: string | undefined): boolean => {
    if (header === undefined) return false;
    let names = headerPercent.get(header);
    if (names === undefined) {
      names = namesPercent(header);
      headerPercent.set(header, names);
    }
    return names;
  };
  const ownScales = scales.length > 0 ? tableScales(lines) : undefined;
  for (const line of lines) {
    if (line.text.trim().length === 0) paragraph += 1;
    const tableLine = isTableLine(line.text);
    // A line of a table with words and figures in its first cell only is a sentence (a caption), not a row;
    // one that only names a period ("Year ended 30 June 2019 | |") still heads the rows after it.
    const table = tableLine && !(isCaption(line.text) && sectionYear(line.text, options) === undefined);
    if (tableLine && !previousWasTable) {
      block += 1;
      years = undefined;
      periods = undefined;
      headers = makeColumnHeaders();
      section = undefined;
      noteColumns = undefined;
      rowHeading = undefined;
      row = 0;
    }
    previousWasTable = tableLine;
    if (tableLine) row += 1;
    const namesPeriodInYear = table && periodLike.test(line.text);
    if (table) {
      const periodHeader = namesPeriodInYear ? periodColumns(line.text) : undefined;
      const header = yearLike.test(line.text) ? yearColumns(line.text) : undefined;
      headers.read(line.text, header !== undefined || periodHeader !== undefined);
      if (header || periodHeader) {
        // Dated columns of one year ("June 30, 2019 | December 31, 2019") are ordered by their dates; a line
        // of quarters under a line of years keeps the years.
        const dated = header === undefined ? cellYears(line.text) : undefined;
        years = header ?? (dated && dated.size > 0 ? dated : years);
        if (periodHeader) periods = periodHeader;
        continue;
      }
      const periodLine = yearLike.test(line.text) ? sectionYear(line.text, options) : undefined;
      if (periodLine !== undefined) {
        section = periodLine;
        continue;
      }
      noteColumns = referenceColumns(line.text) ?? noteColumns;
    }
    const figures = extractNumbers(line.text, options);
    const withNil = table ? withDashCells(figures, line.text) : figures;
    const quantities = withNil.filter(isQuantity);
    const label = table ? firstCell(line.text).trim() : "";
    const lowerLabel = label.toLowerCase();
    // A row of words without figures ("Earnings per share: | | |") heads the rows under it.
    if (table && quantities.length === 0 && wordOfThree.test(lowerLabel)) rowHeading = lowerLabel;
    // The rest describes the line's figures to each of them: a line without any (most lines of prose) needs
    // none of it.
    if (quantities.length === 0) continue;
    const lineText = line.text.toLowerCase();
    const separators = table ? separatorsOf(line.text) : [];
    const labelPeriod = namesPeriodInYear ? periodInYear(label) : undefined;
    const labelYear = table ? rowYear(label, labelPeriod) : undefined;
    // "per cent" only where the lower-cased line holds "per": the expression reads no other letters as those.
    const percentLine =
      !table && (line.text.includes("%") || (lineText.includes("per") && perCent.test(line.text)));
    // "total" written before a figure of prose: only looked for when the line holds the word at all.
    const mentionsTotal = !table && lineText.includes("total");
    const listedYears =
      !table && lineText.includes("respectively") ? respectivelyYears(line.text, quantities) : undefined;
    // What the row's label says holds for each of its figures: read once per row, not once per figure (a row
    // of thousands of cells under a long label read the label again for each of them).
    const totalRow = table && totalLabel.test(label);
    // A cell of a row or column headed as percents ("Gross margin (%)", "Percent change"): the scale of the
    // table's amounts ("$ in millions") is not its scale, 12.5 in a percent column is never 12.5 million.
    const percentRow = table && namesPercent(lowerLabel);
    for (let at = 0; at < quantities.length; at++) {
      const number = quantities[at] as ExtractedNumber;
      const column = table ? cellIndexAt(separators, number.span.start) : -1;
      // A row label ("net of tax of $1") or a "Note" column (references to notes): matched, never operands.
      const inLabel = table && (column === 0 || (noteColumns?.has(column) ?? false));
      const year = table
        ? (years?.get(column) ?? labelYear ?? section)
        : (listedYears?.[at] ?? yearNear(line.text, number.span.start, number.span.end));
      const periodInYear = table ? (periods?.get(column) ?? labelPeriod) : undefined;
      const before = line.text.slice(Math.max(0, number.span.start - 48), number.span.start);
      const isTotal = table ? totalRow : mentionsTotal && totalBefore.test(before);
      const noun = table ? undefined : countedNoun(lineText, number.span.end);
      numbers.push({
        id: firstId + numbers.length,
        number: numberWith(number, {
          span: { start: number.span.start + line.start, end: number.span.end + line.start },
        }),
        source: evidence.index,
        values: candidateValues(
          number,
          table && (percentRow || headerNamesPercent(headers.of(column)))
            ? []
            : ((table ? ownScales?.get(block) : undefined) ?? scales),
        ),
        lineText,
        paragraph,
        table: table ? tablePlace(block, row, column, lowerLabel, headers.of(column)) : undefined,
        year,
        periodInYear,
        isTotal: isTotal && !inLabel,
        inLabel,
        scaleUnknown: scales.length === 0,
        percentContext: table ? percentBlocks.has(block) : percentLine,
        rowHeading: table ? rowHeading : undefined,
        countedNoun: noun,
      });
    }
  }
  return { numbers: withRepeatedPeriods(numbers), scaleUnknown: scales.length === 0 };
};

/**
 * A sentence that names a table row and repeats one of its figures ("Amounts due to related parties of $200")
 * speaks of that figure, so of its period: the figure of prose takes the year of the cell it repeats, when
 * it has none of its own and the row holds that value in one period only.
 */
const withRepeatedPeriods = (numbers: SourceNumber[]): SourceNumber[] => {
  if (!numbers.some((number) => !number.table && number.year === undefined)) return numbers;
  // Each row label of four characters or more, with the years each of its values stands in.
  const rows = new Map<string, Map<number, Set<number>>>();
  for (const number of numbers) {
    const label = number.table?.label ?? "";
    if (!number.table || number.year === undefined || number.inLabel || label.length < 4) continue;
    let values = rows.get(label);
    if (values === undefined) {
      values = new Map();
      rows.set(label, values);
    }
    const years = values.get(number.number.value);
    if (years) years.add(number.year);
    else values.set(number.number.value, new Set([number.year]));
  }
  if (rows.size === 0) return numbers;
  // The figures of one line follow each other: its labels are asked for once per line.
  const labelsOf = lastTextMemo(labelFinder([...rows.keys()]));
  return numbers.map((number) => {
    if (number.table || number.year !== undefined) return number;
    const years = new Set<number>();
    for (const label of labelsOf(number.lineText))
      for (const year of rows.get(label)?.get(number.number.value) ?? []) years.add(year);
    const [year] = years;
    return years.size === 1 && year !== undefined ? { ...number, year } : number;
  });
};

/** Every quantity of the evidence, up to `maxNumbers`; `truncated` says when some were left unread. */
export const buildSourcePool = (
  evidence: readonly EvidenceSource[],
  options: ExtractOptions & { readonly maxNumbers?: number } = {},
  readOne: SourceReader = readSource,
): SourcePool => {
  const limit = options.maxNumbers ?? defaultMaxSourceNumbers;
  const numbers: SourceNumber[] = [];
  let scaleUnknown = true;
  let truncated = false;
  for (const source of evidence) {
    if (numbers.length >= limit) {
      // A source left unread entirely is truncation only when it holds text.
      if (source.text.trim().length > 0) truncated = true;
      break;
    }
    const read = readOne(source, numbers.length, options);
    // One by one: a spread of a long list overflows the call stack.
    for (const number of read.numbers) {
      if (numbers.length >= limit) {
        truncated = true;
        break;
      }
      numbers.push(number);
    }
    if (!read.scaleUnknown) scaleUnknown = false;
  }
  return { numbers, scaleUnknown, truncated };
};
