import { lastTextMemo } from "../../../text/last-text-memo.js";
import {
  combined,
  type Inner,
  innerCombinations,
  sameColumn,
  sameRow,
  single,
} from "./composite-operands.js";
import { isNil } from "./dash-cells.js";
import type { DerivationKind } from "./formula.js";
import { contentWords, type Operand } from "./operands.js";
import { inPeriodOrder } from "./period-order.js";
import { type Found, negligible, type Target } from "./search.js";
import type { SourceNumber } from "./source-numbers.js";

/**
 * The second level of the derivation search: a derivation whose operands are themselves a sum, an average or
 * a difference of two figures ("the difference between the 2019 average of A and the 2019 average of B",
 * "the share of A and B in the total", "the percentage change of A + B"). Bounded twice: only the figures
 * closest to the claim are combined, and a level is taken only when the claim's wording names both
 * operations (its inner one and its outer one). The match must be within the claimed number's written
 * precision, as every match is: a near value is never explained this way.
 */
const limits = {
  /** Source figures, closest to the claim first, that may be combined. */
  maxFigures: 10,
  /** Most figures in all, counting those of the table rows the claim names word for word. */
  maxNamedFigures: 40,
  /**
   * Most totals of those figures' tables added to them. Combinations are made of pairs of figures and then a
   * third: a table of nothing but totals added every figure it holds, and 200 rows of totals took 10 s.
   */
  maxTotals: 20,
} as const;

/**
 * Two combinations of the same kind over parallel figures: the figures pair up, in order, all within rows
 * (the same items of two periods) or all within columns (two items of the same periods). Windows may
 * overlap: the averages of 2019-2018 and of 2018-2017 share 2018.
 */
const parallel = (x: Operand, y: Operand): boolean => {
  if (x.combine !== y.combine || x.parts.length !== y.parts.length || x.scale !== y.scale) return false;
  const pairs = x.parts.map((part, i) => [part, y.parts[i] as SourceNumber] as const);
  if (x.parts.some((part) => y.parts.includes(part))) return shiftedWindows(x, pairs);
  return pairs.every(([a, b]) => sameRow(a, b)) || pairs.every(([a, b]) => sameColumn(a, b));
};

/**
 * Averages sharing a figure are parallel only as windows over the periods of one row, the later window
 * shifted by one: (2019 + 2018) / 2 and (2018 + 2017) / 2. Sums or differences sharing a figure are not:
 * the shared figure cancels, leaving a plain difference in an order nothing fixes.
 */
const shiftedWindows = (x: Operand, pairs: readonly (readonly [SourceNumber, SourceNumber])[]): boolean =>
  x.combine === "average" &&
  pairs.every(([a, b]) => sameRow(a, b) && a.year !== undefined && b.year !== undefined && a.year > b.year);

/** A figure that belongs with a combination: in the row, column or paragraph of one of its figures. */
const belongsWith = (x: Operand, c: Operand): boolean => {
  const figure = single(c);
  if (!figure || x.parts.includes(figure) || (x.raw ?? false) !== (c.raw ?? false) || x.scale !== c.scale)
    return false;
  return x.parts.some((part) => sameRow(part, figure) || sameColumn(part, figure));
};

/** A figure in the very line of every figure of a sum: a third item of that sum. */
const thirdItem = (x: Operand, c: Operand): boolean => {
  const figure = single(c);
  if (!figure || x.combine !== "sum" || x.parts.includes(figure) || x.scale !== c.scale) return false;
  if ((x.raw ?? false) !== (c.raw ?? false) || negligible(x.value, c.value)) return false;
  return x.parts.every((part) => sameRow(part, figure)) || x.parts.every((part) => sameColumn(part, figure));
};

/**
 * The second-level shapes, each a phrase a claim can name: the change (or percentage change) between two
 * averages or two totals; the average of two changes; the share of a sum in a figure of its row or column.
 */
interface Outer {
  readonly kind: DerivationKind;
  readonly compute: (a: number, b: number) => number;
  /** The kind of combinations it takes: two parallel ones, or one combination over a figure. */
  readonly of: readonly Inner[];
  readonly overFigure: boolean;
  readonly ordered: boolean;
  /** For a percent claim: percents added or subtracted, or any figures divided into a percent. */
  readonly forPercent: "additive" | "any" | "never";
  readonly forPlain: boolean;
}

const outerRules: readonly Outer[] = [
  {
    kind: "difference",
    compute: (a, b) => a - b,
    of: ["average", "sum"],
    overFigure: false,
    ordered: true,
    forPercent: "additive",
    forPlain: true,
  },
  {
    kind: "percent-change",
    compute: (a, b) => ((a - b) / b) * 100,
    of: ["average", "sum"],
    overFigure: false,
    ordered: true,
    forPercent: "any",
    forPlain: false,
  },
  {
    kind: "average",
    compute: (a, b) => (a + b) / 2,
    of: ["difference"],
    overFigure: false,
    ordered: false,
    forPercent: "additive",
    forPlain: true,
  },
  {
    kind: "ratio",
    compute: (a, b) => a / b,
    of: ["sum"],
    overFigure: true,
    ordered: false,
    forPercent: "never",
    forPlain: true,
  },
  {
    kind: "percentage",
    compute: (a, b) => (a / b) * 100,
    of: ["sum"],
    overFigure: true,
    ordered: false,
    forPercent: "any",
    forPlain: false,
  },
];

const within = (value: number, target: Target) =>
  Number.isFinite(value) &&
  Math.abs(value - target.value) <= target.tolerance + Math.abs(target.value) * 1e-12;

/** The figures a claim's composites are made of, kept per ranked list: every target of the claim asks again. */
const chosenFigures = new WeakMap<
  readonly Operand[],
  { readonly claim: string; readonly figures: Operand[] }
>();

/**
 * The figures closest to the claim and those of the table rows it names word for word (each in every scale it
 * may be read in), then the totals of their tables. They depend on the claim and its ranking only, not on the
 * value looked for: a claim's figures are chosen once, not once for each of its numbers' targets (each choice
 * reads every source figure).
 */
const compositeFigures = (ranked: readonly Operand[], claim: string): Operand[] => {
  const kept = chosenFigures.get(ranked);
  if (kept?.claim === claim) return kept.figures;
  const claimWords = new Set(contentWords(claim));
  // Table rows the claim names word for word ("defined benefit schemes"). The figures of one row share its
  // label, and a claim's ranked figures hold many rows' several columns: each label is read once per claim,
  // and asked about once for the figures of its row, which follow each other.
  const namedLabels = new Map<string, boolean>();
  const labelNamed = lastTextMemo((label) => {
    let named = namedLabels.get(label);
    if (named === undefined) {
      const words = contentWords(label);
      named = words.length > 0 && words.every((word) => claimWords.has(word));
      namedLabels.set(label, named);
    }
    return named;
  });
  const rowNamed = (figure: SourceNumber) => figure.table !== undefined && labelNamed(figure.table.label);
  // The figures closest to the claim and those of the rows it names (each in every scale it may be read
  // in), then the totals of their tables.
  const chosen = new Set<number>();
  const figures: Operand[] = [];
  for (const operand of ranked) {
    const figure = single(operand);
    if (!figure || figure.inLabel || figure.source < 0 || isNil(figure)) continue;
    const known = chosen.has(figure.id);
    if (!known && chosen.size >= limits.maxFigures && !rowNamed(figure)) continue;
    if (!known && chosen.size >= limits.maxNamedFigures) continue;
    chosen.add(figure.id);
    figures.push(operand);
  }
  const blocks = new Set(figures.map((operand) => operand.parts[0]?.table?.block));
  let totals = 0;
  for (const operand of ranked) {
    if (totals >= limits.maxTotals) break;
    const figure = single(operand);
    if (!figure?.isTotal || figure.inLabel || chosen.has(figure.id) || !figure.table || isNil(figure))
      continue;
    if (blocks.has(figure.table.block)) {
      figures.push(operand);
      totals += 1;
    }
  }
  chosenFigures.set(ranked, { claim, figures });
  return figures;
};

/**
 * A derivation of the second level that hits the target within its written precision, or undefined. The
 * claim must name the operations (`target.kinds`): an inner sum, average or difference and an outer
 * difference, percent change, average, ratio or percentage, or a sum or average of three items.
 */
export const findComposite = (
  ranked: readonly Operand[],
  target: Target,
  claimText: string,
  accept: (found: Found) => boolean,
): Found | undefined => {
  const kinds = target.kinds;
  if (!kinds) return undefined;
  const claim = claimText.toLowerCase();
  const figures = compositeFigures(ranked, claim);
  // Sums the claim names by joining their items with "and", without naming a sum.
  const namedSums = new Set<Operand>();
  const inner = innerCombinations(figures, kinds, claim, namedSums);
  const tryFound = (found: Found): Found | undefined =>
    within(found.value, target) && accept(found) ? found : undefined;
  // Three items of one line, summed or averaged (percents only for a percent claim).
  for (const x of inner) {
    if (x.combine !== "sum" || (target.percent && !x.isPercent)) continue;
    for (const c of figures) {
      if (target.percent && !c.isPercent) continue;
      if (!thirdItem(x, c)) continue;
      const parts = [...x.parts, ...c.parts];
      const sum = x.value + c.value;
      const hit =
        (kinds.has("sum")
          ? tryFound({ kind: "value", a: combined("sum", x, c, sum, parts), value: sum })
          : undefined) ??
        (kinds.has("average")
          ? tryFound({ kind: "value", a: combined("average", x, c, sum / 3, parts), value: sum / 3 })
          : undefined);
      if (hit) return hit;
    }
  }
  for (const rule of outerRules) {
    if (!kinds.has(rule.kind) || (target.percent ? rule.forPercent === "never" : !rule.forPlain)) continue;
    const percentsOnly = target.percent && rule.forPercent === "additive";
    for (const x of inner) {
      if (!rule.of.includes(x.combine as Inner) || !(kinds.has(x.combine) || namedSums.has(x))) continue;
      const pairs: [Operand, Operand][] = [];
      if (rule.overFigure) {
        // "The share of A and B in the total": the items are not totals themselves.
        if (x.parts.some((part) => part.isTotal)) continue;
        // A share is of a whole of the same sign: never negative.
        for (const c of ranked) if (belongsWith(x, c) && x.value * c.value > 0) pairs.push([x, c]);
      } else {
        for (const y of inner) if (y !== x && parallel(x, y)) pairs.push([x, y]);
      }
      for (const [a, b] of pairs) {
        if (percentsOnly && !(a.isPercent && b.isPercent)) continue;
        if (rule.ordered && !inPeriodOrder(a, b)) continue;
        const hit = tryFound({ kind: rule.kind, a, b, value: rule.compute(a.value, b.value) });
        if (hit) return hit;
      }
    }
  }
  return undefined;
};
