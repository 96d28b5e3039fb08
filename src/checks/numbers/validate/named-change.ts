import type { DerivationKind } from "../derive/formula.js";
import { contentWords, type Operand } from "../derive/operands.js";
import { derivationsNamed } from "../derive/operation-words.js";
import type { Found, Target } from "../derive/search.js";
import { namesPercent, type SourceNumber } from "../derive/source-numbers.js";
import { type Direction, statesOneDirection } from "./stated-direction.js";

/**
 * A change the claim names between two periods it names: "the change in Revenue from 2018 to 2019", "the
 * increase / (decrease) in freight costs in 2021 from 2020". `words` are the claim's content words, by which
 * the row it is about is recognised.
 */
export interface NamedChange {
  readonly earlier: number;
  readonly later: number;
  readonly words: ReadonlySet<string>;
  /** The claim states one direction ("increased", "fell"), not a signed change ("the change in"). */
  readonly directionStated: boolean;
  /** The claim names a percentage or share besides the change: only a row of percents is what it names. */
  readonly ofPercents: boolean;
}

const changeKinds: ReadonlySet<DerivationKind> = new Set(["difference", "percent-change"]);
const shareKinds: ReadonlySet<DerivationKind> = new Set(["percentage", "percent-of", "ratio"]);

const changeWords =
  /\b(?:change[ds]?|increase[ds]?|decrease[ds]?|growth|grew|rose|fell|declined?|dropped|movement)\b/i;

/** "2019", "FY19", "F18", "FY'17"; "2018/2019" (a fiscal year across two calendar years) is its later year. */
const periodPattern =
  /(?<![\d,.])((?:19|20)\d{2})(?:\s*\/\s*((?:19|20)\d{2}))?(?![\d,]|\.\d)|\bFY?\s?'?(\d{2})\b/gi;

const periodsIn = (text: string): number[] =>
  [...text.matchAll(periodPattern)].map((match) =>
    match[1] ? Math.max(Number(match[1]), Number(match[2] ?? 0)) : 2000 + Number(match[3]),
  );

/** "From 2019 to 2018": named latest first, a change read in that order would be earlier minus later. */
const fromLaterToEarlier = (text: string): boolean => {
  const match = /\bfrom\b(.{0,40}?)\bto\b(.{0,40})/i.exec(text);
  if (!match) return false;
  const [from] = periodsIn(match[1] ?? "");
  const [to] = periodsIn(match[2] ?? "");
  return from !== undefined && to !== undefined && from > to;
};

/**
 * The change the claim around a figure names: change wording and exactly two periods (the figure's own
 * digits blanked out, so that "2122" answering the question is no period). Undefined when the claim names
 * the periods latest first ("from 2019 to 2018"): which of the two is subtracted is then a matter of reading.
 */
export const namedChange = (
  claimText: string,
  start: number,
  end: number,
  direction: Direction | undefined,
): NamedChange | undefined => {
  const text =
    claimText.slice(0, Math.max(0, start)) + " ".repeat(Math.max(0, end - start)) + claimText.slice(end);
  if (!changeWords.test(text)) return undefined;
  // "The average change", "the change in the ratio of X to revenue": a change of something the row is only
  // an operand of. Only a claim naming a change and nothing else is about the row's own change, or one that
  // names a percentage besides, of a row of percents ("the change in the percentage of sales from retail stores").
  const others = [...(derivationsNamed(text) ?? [])].filter((kind) => !changeKinds.has(kind));
  if (others.some((kind) => !shareKinds.has(kind))) return undefined;
  const periods = [...new Set(periodsIn(text))];
  if (periods.length !== 2 || fromLaterToEarlier(text)) return undefined;
  const [first = 0, second = 0] = periods;
  return {
    earlier: Math.min(first, second),
    later: Math.max(first, second),
    words: new Set(contentWords(text)),
    directionStated: direction !== undefined || statesOneDirection(text),
    ofPercents: others.length > 0,
  };
};

/** What the row the claim names says about the figure. */
export type ChangeReading =
  /** One reading of the named row's change is the figure: it is explained where the claim says. */
  | { readonly agrees: true }
  /**
   * No reading is the figure; `expected` is the change of the named row (its negation when `sign`), in the
   * claim's scale, or, `asWritten`, in the scale the figure is written in (a source whose scale is unknown).
   */
  | { readonly agrees: false; readonly expected: Found; readonly sign: boolean; readonly asWritten: boolean };

const plainCell = (operand: Operand): SourceNumber | undefined => {
  const part = operand.parts.length === 1 && operand.combine === "value" ? operand.parts[0] : undefined;
  return part?.table && !part.inLabel && part.source >= 0 ? part : undefined;
};

/**
 * How well the claim names a table row: 0 unless it names every word of the row's label; else those words and
 * the words of the heading over the row it also names ("Basic" under "Net income per share:" is named by "basic
 * net income per share" better than the row "Net income" is).
 */
const namedWords = (cell: SourceNumber, words: ReadonlySet<string>): number => {
  const own = contentWords(cell.table?.label ?? "");
  if (own.length === 0 || !own.every((word) => words.has(word))) return 0;
  const heading = cell.rowHeading === undefined ? [] : contentWords(cell.rowHeading);
  return own.length + heading.filter((word) => words.has(word)).length;
};

/** A figure of percents: written with "%", or in a row or column headed as one ("Gross margin (%)"). */
const writtenAsPercent = (cell: SourceNumber): boolean =>
  cell.number.kind === "percent" ||
  namesPercent(cell.table?.label ?? "") ||
  namesPercent(cell.table?.header ?? "");

const within = (value: number, target: Target) =>
  Math.abs(value - target.value) <= target.tolerance + Math.abs(target.value) * 1e-12;

/** A reading of the named row's change: the derivation, and the values it may be stated as. */
interface Candidate {
  readonly found: Found;
  /** In the figures' scale, and as their literals are written (a scale is the scale check's business). */
  readonly values: readonly number[];
}

/** The changes later minus earlier of two cells of one row, as difference and (for a percent) percent change. */
const candidatesOf = (later: Operand, earlier: Operand, percent: boolean, stated: boolean): Candidate[] => {
  const laterCell = later.parts[0] as SourceNumber;
  const earlierCell = earlier.parts[0] as SourceNumber;
  const readings = [
    [later.value, earlier.value],
    [laterCell.number.value, earlierCell.number.value],
  ] as const;
  const candidates: Candidate[] = [];
  if (!percent || (writtenAsPercent(laterCell) && writtenAsPercent(earlierCell))) {
    // Of figures written as accounting negatives, "the change" carries the sign of the signed figures, but a
    // stated direction may describe the magnitudes: costs of (900) against (600) "increased by 300".
    const magnitudes = stated && later.value < 0 && earlier.value < 0;
    const values = readings.flatMap(([a, b]) => (magnitudes ? [a - b, b - a] : [a - b]));
    candidates.push({
      found: { kind: "difference", a: later, b: earlier, value: later.value - earlier.value },
      values,
    });
  }
  if (percent && earlier.value !== 0) {
    // Of a negative base the percent change is read with its sign or against the magnitude.
    const values = readings.flatMap(([a, b]) => {
      const value = ((a - b) / b) * 100;
      return b < 0 ? [value, -value] : [value];
    });
    const value = ((later.value - earlier.value) / earlier.value) * 100;
    candidates.push({ found: { kind: "percent-change", a: later, b: earlier, value }, values });
  }
  return candidates;
};

/**
 * The change of the row the claim names, between the periods it names, read against the figure: its targets
 * (`targets`, the first in the claim's scale) and its value as written (`written`). The named row is a table
 * row whose label's words the claim names all of (of several, those the claim names best, see `namedWords`);
 * its cells of the two periods give the change later minus earlier, as a difference, and as a percent change
 * for a percent figure (a row of percents also as a difference in points). Undefined when no named row has
 * cells of both periods.
 */
export const readNamedChange = (
  change: NamedChange,
  targets: readonly Target[],
  written: Target,
  operands: readonly Operand[],
): { reading: ChangeReading; onNamedRow: (found: Found) => boolean } | undefined => {
  const first = targets[0];
  if (!first) return undefined;
  let best = 0;
  const cells: { operand: Operand; cell: SourceNumber }[] = [];
  for (const operand of operands) {
    const cell = plainCell(operand);
    if (!cell || (cell.year !== change.earlier && cell.year !== change.later)) continue;
    if (change.ofPercents && !writtenAsPercent(cell)) continue;
    const named = namedWords(cell, change.words);
    if (named === 0 || named < best) continue;
    if (named > best) {
      best = named;
      cells.length = 0;
    }
    cells.push({ operand, cell });
  }
  const rowOf = (cell: SourceNumber | undefined) =>
    `${cell?.source}:${cell?.table?.block}:${cell?.table?.row}`;
  const rows = new Set(cells.map(({ cell }) => rowOf(cell)));
  const candidates: Candidate[] = [];
  for (const later of cells) {
    if (later.cell.year !== change.later) continue;
    for (const earlier of cells) {
      if (earlier.cell.year !== change.earlier || rowOf(earlier.cell) !== rowOf(later.cell)) continue;
      // The same reading of both: raw with raw, in the declared scale with the declared scale.
      if (later.operand.raw !== earlier.operand.raw || later.operand.scale !== earlier.operand.scale)
        continue;
      candidates.push(...candidatesOf(later.operand, earlier.operand, first.percent, change.directionStated));
    }
  }
  if (candidates.length === 0) return undefined;
  const onNamedRow = (found: Found) =>
    [...found.a.parts, ...(found.b?.parts ?? [])].every((part) => rows.has(rowOf(part)));
  const asked = [...targets, written];
  if (candidates.some(({ values }) => values.some((value) => asked.some((target) => within(value, target)))))
    return { reading: { agrees: true }, onNamedRow };
  const flipped =
    candidates.find(({ found }) => within(-found.value, first)) ??
    candidates.find(({ values }) => values.some((value) => within(-value, first) || within(-value, written)));
  // Shown in the reading nearest the figure's magnitude: 270 thousand, not 0.27 of the figures as written.
  const distance = ({ found }: Candidate, to: Target) =>
    Math.abs(Math.log10((Math.abs(found.value) + 1e-12) / (Math.abs(to.value) + 1e-12)));
  const expected =
    flipped ??
    candidates.reduce((best, next) => (distance(next, first) < distance(best, first) ? next : best));
  return {
    reading: {
      agrees: false,
      expected: expected.found,
      sign: flipped !== undefined,
      asWritten: distance(expected, written) < distance(expected, first),
    },
    onNamedRow,
  };
};
