import { makeScratchArray } from "../../../model/scratch-array.js";
import type { DerivationKind } from "./formula.js";
import type { Operand } from "./operands.js";
import { operandsFit } from "./pair-operands.js";
import { inPeriodOrder } from "./period-order.js";
import { related } from "./related-figures.js";

/** How far the derivation search may go. */
export interface SearchLimits {
  /** Operands tried as the second operand of a pair, in proximity order. */
  readonly maxPairOperands: number;
  /** Most adjacent row cells summed or averaged as one operand. */
  readonly maxRowRun: number;
}

export const defaultSearchLimits: SearchLimits = { maxPairOperands: 400, maxRowRun: 6 };

/**
 * Most source figures a pair search looks at within one value window. Real tables hold a handful of figures
 * within a figure's rounding of each other; only a source repeating one value reaches this.
 */
const maxWindowCandidates = 256;

/**
 * What to look for: a value in the claim's terms, with the tolerance its written precision allows. Every field
 * is always present, in this order, so all targets share one hidden class.
 */
export interface Target {
  readonly value: number;
  readonly tolerance: number;
  readonly percent: boolean;
  /** The derivations the claim's wording allows; all when undefined. */
  readonly kinds: ReadonlySet<DerivationKind> | undefined;
}

/**
 * A target. Targets are made here and in `retarget` only: object literals of one site share a hidden class,
 * where a spread copy of a target (`{ ...target, value }`) got a class of its own at every site, and the
 * searches read each target's fields in their inner loops.
 */
export const makeTarget = (
  value: number,
  tolerance: number,
  percent: boolean,
  kinds: ReadonlySet<DerivationKind> | undefined,
): Target => ({ value, tolerance, percent, kinds });

/** The same target for another value, with another tolerance if given. */
export const retarget = (target: Target, value: number, tolerance = target.tolerance): Target =>
  makeTarget(value, tolerance, target.percent, target.kinds);

export interface Found {
  readonly kind: DerivationKind;
  readonly a: Operand;
  readonly b?: Operand;
  readonly value: number;
}

/**
 * A value index: the values in ascending order for range queries, the position each came from, and the operand
 * at a position (made when first asked for, by an index that holds millions of possible operands).
 */
export interface ValueIndex {
  readonly sorted: Float64Array;
  readonly order: Int32Array;
  readonly operandAt: (position: number) => Operand | undefined;
}

/** A value index over a list of operands, which the pair search walks directly. */
export interface OperandIndex extends ValueIndex {
  readonly operands: readonly Operand[];
}

/** Below this many positions a run is sorted by insertion; longer stretches are merged. */
const insertionRun = 16;

/**
 * Positions `0..n-1` in ascending order of `values`, equal values in position order (a stable sort). A merge
 * sort written out here: `TypedArray.prototype.sort` with a comparator costs a call per comparison. The passes
 * run in two work arrays kept between sorts (`sortPasses`), and the result is copied out of them: one new array
 * per sort instead of two (see `makeScratchArray` for what making one costs).
 * Only for finite values (NaN has no order, so its place depends on the sorting algorithm).
 */
const stableOrder = (values: Float64Array): Int32Array => {
  const n = values.length;
  const first = sortPasses.take(n);
  const second = sortPassesOther.take(n);
  let order = first;
  let merged = second;
  for (let i = 0; i < n; i++) order[i] = i;
  for (let start = 0; start < n; start += insertionRun) {
    const end = Math.min(n, start + insertionRun);
    for (let i = start + 1; i < end; i++) {
      const position = order[i] as number;
      const value = values[position] as number;
      let j = i - 1;
      while (j >= start && (values[order[j] as number] as number) > value) {
        order[j + 1] = order[j] as number;
        j -= 1;
      }
      order[j + 1] = position;
    }
  }
  for (let width = insertionRun; width < n; width *= 2) {
    for (let low = 0; low < n; low += 2 * width) {
      const middle = Math.min(n, low + width);
      const high = Math.min(n, low + 2 * width);
      let i = low;
      let j = middle;
      let k = low;
      while (i < middle && j < high) {
        const left = order[i] as number;
        const right = order[j] as number;
        // Ties take the left (earlier) position: stable.
        if ((values[right] as number) < (values[left] as number)) {
          merged[k++] = right;
          j += 1;
        } else {
          merged[k++] = left;
          i += 1;
        }
      }
      while (i < middle) merged[k++] = order[i++] as number;
      while (j < high) merged[k++] = order[j++] as number;
    }
    [order, merged] = [merged, order];
  }
  const sorted = order.slice(0, n);
  sortPasses.give(first);
  sortPassesOther.give(second);
  return sorted;
};

/** The merge sort's two pass buffers (see `makeScratchArray`). */
const sortPasses = makeScratchArray((length) => new Int32Array(length));
const sortPassesOther = makeScratchArray((length) => new Int32Array(length));

/** The operands' values, in a work array kept between calls (see `makeScratchArray`): read only by the sort. */
const operandValues = makeScratchArray((length) => new Float64Array(length));

/**
 * `visit` with the operands' values in a work array (`operandValues`) as long as they are, given back when it
 * returns: `visit` must not keep it.
 */
const withOperandValues = <T>(operands: readonly Operand[], visit: (values: Float64Array) => T): T => {
  const n = operands.length;
  const kept = operandValues.take(n);
  const values = kept.length === n ? kept : kept.subarray(0, n);
  for (let i = 0; i < n; i++) values[i] = (operands[i] as Operand).value;
  const result = visit(values);
  operandValues.give(kept);
  return result;
};

export const indexOperands = (operands: readonly Operand[]): OperandIndex => {
  const { sorted, order } = withOperandValues(operands, sortValues);
  return { operands, sorted, order, operandAt: (position) => operands[position] };
};

/** Positions `0..n-1` in ascending order of `values` (equal values in position order), for any numbers. */
const valueOrder = (values: Float64Array): Int32Array => {
  const n = values.length;
  let finite = true;
  for (let i = 0; i < n; i++) if (!Number.isFinite(values[i] as number)) finite = false;
  if (finite) return stableOrder(values);
  // Infinities and NaN: the comparator sort, whose treatment of NaN the index has always had.
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((x, y) => (values[x] as number) - (values[y] as number));
};

/** The values in ascending order, and the position each came from (equal values in position order). */
export const sortValues = (values: Float64Array): { sorted: Float64Array; order: Int32Array } => {
  const order = valueOrder(values);
  const n = values.length;
  const sorted = new Float64Array(n);
  for (let i = 0; i < n; i++) sorted[i] = values[order[i] as number] as number;
  return { sorted, order };
};

const lowerBound = (sorted: Float64Array, value: number): number => {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] ?? 0) < value) low = middle + 1;
    else high = middle;
  }
  return low;
};

/**
 * Operands whose value lies in `[center - width, center + width]`, the first `maxWindowCandidates` of them in
 * value order: a source repeating one figure thousands of times would otherwise hand every caller all of them.
 */
const inRange = (index: ValueIndex, center: number, width: number): Operand[] => {
  const slack = Math.abs(center) * 1e-12;
  const high = center + width + slack;
  const first = lowerBound(index.sorted, center - width - slack);
  if (first >= index.sorted.length || (index.sorted[first] ?? 0) > high) return noOperands;
  const found: Operand[] = [];
  const last = Math.min(index.sorted.length, first + maxWindowCandidates);
  for (let i = first; i < last && (index.sorted[i] ?? 0) <= high; i++) {
    const operand = index.operandAt(index.order[i] ?? 0);
    if (operand) found.push(operand);
  }
  return found;
};

const noOperands: Operand[] = [];

/** An operand read from a recorded calculator output (evidence index -1). */
const fromCalculator = (a: Operand): boolean => a.parts.length === 1 && a.parts[0]?.source === -1;

const sameSource = (a: Operand, b: Operand) =>
  a.parts.length === 1 && b.parts.length === 1 && a.parts[0] === b.parts[0];

/**
 * Adding or subtracting a figure a thousand times smaller than the other changes nothing a claim would state:
 * such a pair (25,489 and 0.04) is two figures in different units, not a derivation.
 */
export const negligible = (a: number, b: number): boolean =>
  a !== 0 && b !== 0 && Math.min(Math.abs(a), Math.abs(b)) < Math.max(Math.abs(a), Math.abs(b)) * 1e-3;

/**
 * The inverse of a pair rule's formula, by the first operand: where the first operand must lie, worked out
 * from the target and the second operand (see the cases of `findPairs`' window loop). A number to switch on:
 * the search asks for every second operand of every rule, and literal numbers in a switch are a jump where
 * the rule's name compared strings case by case, and named constants read a property in each case.
 *
 * 0: a = t + b (a difference; expenses, revenue less income); 1: a = t - b (a sum); 2: a = 2t - b (an average
 * of two); 3: a = t b (a ratio); 4: a = 100 t / b (a percent of a figure); 5: a = t b / 100 (the whole of a
 * share); 6: a = t / b (a count times a price per unit); 7: a = b (1 + t / 100) (a percent change from b);
 * 8: a = t b / 100, b never 0 (a percentage of b).
 */
type Inverse = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

interface PairRule {
  readonly kind: DerivationKind;
  readonly inverse: Inverse;
  readonly forPercent: boolean;
  readonly forPlain: boolean;
  /** The formula, on the first and the second operand (its inverse is `inverse`). */
  readonly compute: (a: number, b: number) => number;
  readonly additive: boolean;
  readonly ordered: boolean;
  /** Tried only when the claim's wording names it, never for a claim that names no operation. */
  readonly namedOnly: boolean;
}

const pairRules: readonly PairRule[] = [
  {
    kind: "difference",
    inverse: 0,
    forPercent: true,
    forPlain: true,
    additive: true,
    ordered: true,
    namedOnly: false,
    compute: (a, b) => a - b,
  },
  {
    // Percents add up only with percents: shares of one whole ("34% + 11% of revenue").
    kind: "sum",
    inverse: 1,
    forPercent: true,
    forPlain: true,
    additive: true,
    ordered: false,
    namedOnly: false,
    compute: (a, b) => a + b,
  },
  {
    kind: "average",
    inverse: 2,
    forPercent: true,
    forPlain: true,
    additive: true,
    ordered: false,
    namedOnly: false,
    compute: (a, b) => (a + b) / 2,
  },
  {
    kind: "ratio",
    inverse: 3,
    forPercent: false,
    forPlain: true,
    additive: false,
    ordered: false,
    namedOnly: false,
    compute: (a, b) => a / b,
  },
  {
    kind: "percent-of",
    inverse: 4,
    forPercent: false,
    forPlain: true,
    additive: false,
    ordered: false,
    namedOnly: false,
    compute: (a, b) => (a * b) / 100,
  },
  {
    // The whole a figure is a share of: "12% of the staff, or 840 employees" puts the staff at
    // 840 / 12 * 100. Only for a claim that names a whole ("the total number of employees").
    kind: "whole-of-share",
    inverse: 5,
    forPercent: false,
    forPlain: true,
    additive: false,
    ordered: false,
    namedOnly: true,
    compute: (a, b) => (a / b) * 100,
  },
  {
    // A count times a price per unit of what it counts: "250,000 shares at $8.00 per share" are worth
    // 250,000 * 8.00. Only for a figure headed as a count of shares or units and one headed as a price per
    // share or unit (see `countAndPrice`).
    kind: "per-unit-product",
    inverse: 6,
    forPercent: false,
    forPlain: true,
    additive: false,
    ordered: false,
    namedOnly: false,
    compute: (a, b) => a * b,
  },
  {
    // Expenses are what revenue leaves after income: revenue - operating income is the operating expenses,
    // revenue - net income all expenses. Only from a revenue row and an income row of one period, and only
    // for a claim about expenses (see `revenueAndIncome`).
    kind: "expenses",
    inverse: 0,
    forPercent: false,
    forPlain: true,
    additive: true,
    ordered: false,
    namedOnly: true,
    compute: (a, b) => a - b,
  },
  {
    kind: "percent-change",
    inverse: 7,
    forPercent: true,
    forPlain: false,
    additive: false,
    ordered: true,
    namedOnly: false,
    compute: (a, b) => ((a - b) / b) * 100,
  },
  {
    kind: "percentage",
    inverse: 8,
    forPercent: true,
    forPlain: false,
    additive: false,
    ordered: false,
    namedOnly: false,
    compute: (a, b) => (a / b) * 100,
  },
];

/** Direct matches: an operand (a source value, a row sum or average) equal to the target within tolerance. */
export const findDirect = (index: ValueIndex, target: Target): Found[] => {
  const found: Found[] = inRange(index, target.value, target.tolerance)
    // A calculator result carries no unit: "11.11%" in the answer may be the tool's 11.1111... .
    .filter((a) => !target.percent || a.isPercent || fromCalculator(a))
    .filter((a) => a.combine === "value" || !target.kinds || target.kinds.has(a.combine))
    .map((a) => ({ kind: "value", a, value: a.value }));
  if (target.percent) {
    // A fraction written as a percent: 0.1111 in a source, 11.11% in the claim.
    for (const a of inRange(index, target.value / 100, target.tolerance / 100)) {
      if (!a.isPercent && Math.abs(a.value) <= 1)
        found.push({ kind: "percentage" as const, a, value: a.value * 100 });
    }
  }
  return found.sort((x, y) => x.a.rank - y.a.rank);
};

/**
 * Pairs of operands whose difference, sum, average, ratio, percentage, percent change or share hits the
 * target within tolerance. Bounded: the second operand runs over the `maxPairOperands` closest operands;
 * the first is looked up in the sorted index (at most `maxWindowCandidates` per window), so the cost is about
 * `maxPairOperands * rules * (log(n) + maxWindowCandidates)`.
 * Returns the first `maxResults` matches, by rule, then by closeness of the second operand to the claim; only
 * the first when `firstSuffices` says it is good enough (a caller that would take the first if it is, and
 * otherwise look over more, searches once).
 */
export const findPairs = (
  index: OperandIndex,
  seconds: readonly Operand[],
  target: Target,
  limits: SearchLimits,
  maxResults = 8,
  accept: (found: Found) => boolean = () => true,
  firstSuffices: (first: Found) => boolean = () => false,
): Found[] => {
  const found: Found[] = [];
  const { bounded, byValue, values, percent } = secondsByValue(seconds, limits.maxPairOperands);
  const sorted = index.sorted;
  const count = bounded.length;
  // Per second operand (by its place in `bounded`): where its window starts in the sorted values, or -1 when it
  // holds nothing (most do), and where the window ends. Work arrays kept between searches (every rule writes
  // each second operand's start before reading it, and its end with it).
  const firsts = windowStarts.take(count);
  const highs = windowEnds.take(count);
  const t = target.value;
  const w = target.tolerance;
  // Left as soon as enough pairs are found, so `found` never holds more than `maxResults`.
  rules: for (const rule of pairRules) {
    if (target.percent ? !rule.forPercent : !rule.forPlain) continue;
    if (target.kinds ? !target.kinds.has(rule.kind) : rule.namedOnly) continue;
    // Percents add up only with percents.
    const percentsOnly = rule.additive && target.percent;
    // The second operands are taken in value order, so each window is looked for near the one before: the
    // windows of a rule move one way as the second operand grows, and a step costs a few comparisons, not a
    // search over every value. Their values and percent marks are read from arrays in that order.
    let hint = 0;
    let anyWindow = false;
    for (let k = 0; k < count; k++) {
      const at = byValue[k] as number;
      firsts[at] = -1;
      if (percentsOnly && percent[k] === 0) continue;
      // Where the first operand must lie for the formula to hit the target (give or take its tolerance) with
      // this second operand: the window's center and half-width; none when no value does.
      const b = values[k] as number;
      let center: number;
      let width: number;
      switch (rule.inverse) {
        case 0:
          center = t + b;
          width = w;
          break;
        case 1:
          center = t - b;
          width = w;
          break;
        case 2:
          center = 2 * t - b;
          width = 2 * w;
          break;
        case 3:
          if (b === 0) continue;
          center = t * b;
          width = w * Math.abs(b);
          break;
        case 4:
          if (b === 0) continue;
          center = (100 * t) / b;
          width = (100 * w) / Math.abs(b);
          break;
        case 5:
          center = (t * b) / 100;
          width = (w * Math.abs(b)) / 100;
          break;
        case 6:
          if (b === 0) continue;
          center = t / b;
          width = w / Math.abs(b);
          break;
        case 7:
          if (b === 0) continue;
          center = b * (1 + t / 100);
          width = (w * Math.abs(b)) / 100;
          break;
        default:
          if (b === 0) continue;
          center = (t * b) / 100;
          width = (w * Math.abs(b)) / 100;
      }
      const slack = Math.abs(center) * 1e-12;
      const low = center - width - slack;
      const high = center + width + slack;
      // A lower bound that is not a number puts the window's start at the first value, as a search by halves
      // does (no comparison with it holds).
      const first = Number.isNaN(low) ? 0 : lowerBoundNear(sorted, low, hint);
      if (!Number.isNaN(low)) hint = first;
      if (first < sorted.length && (sorted[first] as number) <= high) {
        firsts[at] = first;
        highs[at] = high;
        anyWindow = true;
      }
    }
    if (!anyWindow) continue;
    // The windows that hold something, second operands in proximity order: the matches come out in the
    // order the callers rank them.
    for (let at = 0; at < count; at++) {
      const first = firsts[at] as number;
      if (first < 0) continue;
      const b = bounded[at] as Operand;
      const high = highs[at] as number;
      // At most `maxWindowCandidates` are looked at: sources repeating one figure thousands of times would
      // otherwise make every window walk all of them, for every second operand and every answer figure.
      const last = Math.min(sorted.length, first + maxWindowCandidates);
      for (let i = first; i < last && (sorted[i] ?? 0) <= high; i++) {
        const a = index.operands[index.order[i] ?? 0];
        if (!a) continue;
        if (a === b || sameSource(a, b) || !related(a, b)) continue;
        if (percentsOnly && !a.isPercent) continue;
        if (rule.kind === "percent-of" && (!a.isPercent || b.isPercent)) continue;
        if (!operandsFit(rule.kind, a, b)) continue;
        if (rule.ordered && !inPeriodOrder(a, b)) continue;
        if (rule.additive && negligible(a.value, b.value)) continue;
        const value = rule.compute(a.value, b.value);
        if (!Number.isFinite(value)) continue;
        const pair: Found = { kind: rule.kind, a, b, value };
        if (!accept(pair)) continue;
        found.push(pair);
        if (found.length >= maxResults || (found.length === 1 && firstSuffices(pair))) break rules;
      }
    }
  }
  windowStarts.give(firsts);
  windowEnds.give(highs);
  return found;
};

/** The pair search's work arrays: each second operand's window start and end (see `makeScratchArray`). */
const windowStarts = makeScratchArray((length) => new Int32Array(length));
const windowEnds = makeScratchArray((length) => new Float64Array(length));

/**
 * The second operands a search tries (the first `maxPairOperands`, in proximity order), their positions in value
 * order, and in that order their values and whether each is a percent (1) or not (0). Remembered per list: one
 * claim's figures and targets all search with the same list. Plain arrays: a few hundred numbers each, made once
 * per list, where a typed array of that size costs a backing store outside the heap.
 */
interface SecondOperands {
  readonly bounded: readonly Operand[];
  readonly byValue: Int32Array;
  readonly values: readonly number[];
  readonly percent: readonly number[];
}

const secondsCache = new WeakMap<readonly Operand[], SecondOperands>();
const secondsByValue = (seconds: readonly Operand[], maxPairOperands: number): SecondOperands => {
  const cached = secondsCache.get(seconds);
  if (cached && cached.bounded.length === Math.min(seconds.length, maxPairOperands)) return cached;
  const bounded = seconds.slice(0, maxPairOperands);
  // Only the visiting order depends on this order: NaN or ties anywhere change no result.
  const byValue = withOperandValues(bounded, valueOrder);
  const values: number[] = [];
  const percent: number[] = [];
  for (let k = 0; k < bounded.length; k++) {
    const b = bounded[byValue[k] as number] as Operand;
    values.push(b.value);
    percent.push(b.isPercent ? 1 : 0);
  }
  const entry = { bounded, byValue, values, percent };
  secondsCache.set(seconds, entry);
  return entry;
};

/**
 * `lowerBound` started from `hint`: the first position whose value is at least `value`, found by steps that
 * double from the hint in the direction the answer lies, then a search by halves between the last two steps.
 * The same answer as `lowerBound` for any value but NaN; a few comparisons when the answer is near the hint.
 */
export const lowerBoundNear = (sorted: Float64Array, value: number, hint: number): number => {
  const n = sorted.length;
  let low: number;
  let high: number;
  const from = Math.min(Math.max(hint, 0), n);
  if (from < n && (sorted[from] as number) < value) {
    // The answer lies after `from`.
    low = from + 1;
    high = low;
    let step = 1;
    while (high < n && (sorted[high] as number) < value) {
      low = high + 1;
      high = low + step;
      step *= 2;
    }
    if (high > n) high = n;
  } else {
    // The answer is `from` or before it.
    high = from;
    low = from - 1;
    let step = 1;
    while (low >= 0 && (sorted[low] as number) >= value) {
      high = low;
      low = high - step;
      step *= 2;
    }
    low = Math.max(low, -1) + 1;
  }
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((sorted[middle] as number) < value) low = middle + 1;
    else high = middle;
  }
  return low;
};
