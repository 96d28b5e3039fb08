import { findComposite } from "../derive/composite-search.js";
import {
  type DerivationKind,
  exactResult,
  formulaExpression,
  operandText,
  withUnit,
} from "../derive/formula.js";
import type { Operand } from "../derive/operands.js";
import { derivationsNamed } from "../derive/operation-words.js";
import { periodComparison } from "../derive/period-order.js";
import {
  type Found,
  findDirect,
  findPairs,
  makeTarget,
  type OperandIndex,
  retarget,
  type SearchLimits,
  type Target,
  type ValueIndex,
} from "../derive/search.js";
import type { SourceNumber } from "../derive/source-numbers.js";
import type { ExtractedNumber } from "../extract/types.js";
import type { TopicScore } from "./claim-fit.js";
import { type NamedChange, readNamedChange } from "./named-change.js";
import { miscountedAverage, partialPeriodAverage } from "./partial-period-average.js";
import { type Direction, directionGuard } from "./stated-direction.js";
import type { NumberCheck } from "./validation-result.js";

/** Everything a number is traced against, built once per validation. */
export interface TraceContext {
  readonly index: OperandIndex;
  /** `findDirect(index, target)`, remembered per target object (the result is shared: never mutate it). */
  readonly direct: (target: Target) => readonly Found[];
  /** Sums and averages of adjacent figures, matched directly. */
  readonly runs: () => ValueIndex;
  /** Every figure, closest to the claim first. */
  readonly rankedOperands: () => readonly Operand[];
  readonly limits: SearchLimits;
  /** No evidence declares a scale: bare source figures may stand in any scale. */
  readonly scaleUnknown: boolean;
  /** Relative distance within which a wrong number is "close to" a traceable value. */
  readonly nearMissRelative: number;
  /** Extra relative tolerance for numbers written as approximations ("about 20,000"). */
  readonly approximateRelative: number;
  /** Relative tolerance for close matches beyond the rounding of the written precision (0 by default). */
  readonly closeRelative: number;
  /** The wording of the claim the number sits in. */
  readonly claimText: string;
  /** The derivations the claim's wording names (`derivationsNamed` of `claimText`), read once per claim. */
  readonly namedKinds: () => ReadonlySet<DerivationKind> | undefined;
  /** How well a match's operands are about what the claim is about (see `topicScorer`). */
  readonly topic: TopicScore;
}

const declineWords =
  /\b(?:decrease[ds]?|declin(?:e|ed|es|ing)|fell|fall(?:s|en)?|drop(?:ped|s)?|lower|down|reduc(?:ed|tion)|loss|shrank|contract(?:ed|ion))\b/i;

/** Decline words that also name items ("operating loss", "cost reduction"), not only a direction. */
const itemDeclineWords = /\b(?:loss(?:es)?|lower|down|reduction|contraction)\b/gi;

/** "The change in ...": a signed change, whose sign the figure carries. */
const signedChangeWords = /\b(?:change[ds]?|growth)\b/i;

/**
 * Whether the claim states a decline, so that a positive figure may stand for a negative value ("revenue fell
 * by 5"). In a claim about a change, "loss" or "reduction" name the item ("the change in operating loss
 * carryforward"), not the direction: the change keeps its sign.
 */
const statesDecline = (claimText: string): boolean => {
  // "Operating income (loss)", "(Loss)/profit": a parenthesized or paired word is part of an item's name.
  // `[^()]`: an unclosed "(" stops at the next one instead of scanning to the end of the text again.
  const named = claimText.replace(/\([^()]*\)|\b\w+\s*\/\s*\w+\b/g, " ");
  const wording = signedChangeWords.test(named) ? named.replace(itemDeclineWords, " ") : named;
  return declineWords.test(wording) && !increaseWords.test(wording);
};

const increaseWords = /\b(?:increase[ds]?|grew|gain(?:ed|s)?|rose|higher|up)\b/i;

/** "How much more ... than / compared to": an amount by which one figure exceeds another. */
const comparativeWords = /\bhow\s+(?:much|many)\b.{0,40}?\b(?:more|less|higher|lower|greater|fewer)\b/i;

/** "The difference between A and B": a distance, written without a sign. */
const unsignedWords = /\b(?:difference|gap)\b/i;

/**
 * "The difference between 2019 and 2017", "in 2019 as compared to 2017": the later period named first, so
 * that A - B in the order named is also the change from the earlier to the later. Both readings of the
 * difference agree on its sign, which then counts; named earlier first, they disagree and it does not.
 */
const laterNamedFirst = (claimText: string): boolean => {
  const years = [...claimText.matchAll(/(?<![\d,.])(?:19|20)\d{2}(?![\d,]|\.\d)/g)].map(Number);
  const [first, second] = [...new Set(years)];
  return first !== undefined && second !== undefined && first > second;
};

/** "change", "increase", "decrease", "growth": the wording gives the figure a direction, so its sign counts. */
const directionWords =
  /\b(?:change[ds]?|increase[ds]?|decrease[ds]?|grew|growth|rose|fell|declined?|dropped|gain(?:ed)?|los(?:s|t))\b/i;

/**
 * Whether a pair derivation fits the claim's wording. "The difference between A and B" is a distance: a
 * negative one is only read as later minus earlier period (2019 - 2018) or as A - B in the order the claim
 * names them, never from two figures in an order nothing fixes.
 */
const fitsWording = (found: Found, claimText: string): boolean => {
  if (found.kind !== "difference" || found.value >= 0) return true;
  // "How much more A than B", "by how many percent less": the comparative carries the direction, the figure
  // is a positive amount.
  if (comparativeWords.test(claimText)) return false;
  if (!unsignedWords.test(claimText) || directionWords.test(claimText)) return true;
  const periodOrder = found.b !== undefined && (periodComparison(found.a, found.b) ?? 0) > 0;
  return periodOrder || namedInOrder(found, claimText.toLowerCase());
};

/** How a figure's place may be named: its row label, its column's year, its column's header words. */
type Place = (part: SourceNumber) => string | undefined;
const labelOf: Place = (part) => part.table?.label;
const yearOf: Place = (part) => (part.year === undefined ? undefined : String(part.year));
const headerOf: Place = (part) => part.table?.header;

/** Where the claim names a figure's place, or -1. */
const namedAt = (part: SourceNumber | undefined, claim: string, place: Place): number => {
  const name = part ? place(part) : undefined;
  return name !== undefined && name.length >= 3 ? claim.indexOf(name) : -1;
};

/**
 * "The difference between A and B" is A - B: the first operand's place is named before the second's. Within
 * one row the places are its columns, named by year or by header ("between Workforce reduction and Facility
 * costs").
 */
const namedInOrder = (found: Found, claim: string): boolean => {
  const a = found.a.parts[0];
  const b = found.b?.parts[0];
  const sameRow = a?.table !== undefined && a.table.label === b?.table?.label;
  for (const place of sameRow ? [yearOf, headerOf] : [labelOf]) {
    const first = namedAt(a, claim, place);
    const second = namedAt(b, claim, place);
    if (first >= 0 && second >= 0 && first !== second) return first < second;
  }
  return false;
};

/**
 * The target values a claimed number may stand for, each with the tolerance of its written precision. A positive
 * figure stated as a decline, in its claim's wording or by the direction of its own statement ("revenue rose 5%
 * while costs fell 3%"), also stands for its negation.
 */
export const targetsOf = (
  number: ExtractedNumber,
  claimText: string,
  context: TraceContext,
  direction?: Direction,
  level = false,
): Target[] => {
  const percent = number.kind === "percent";
  const unit = 10 ** -number.decimals;
  const rounding = (scale: number) => 0.5 * unit * scale * (1 + 1e-9);
  const approximate = (value: number) =>
    Math.abs(value) *
    (number.approximate
      ? Math.max(context.approximateRelative, context.closeRelative)
      : context.closeRelative);
  const scaled = percent ? number.value : number.scaled;
  const scale = percent ? 1 : number.scale;
  const named = claimText === context.claimText ? context.namedKinds() : derivationsNamed(claimText);
  // "Rose to $5.5 million": the change word is about the movement; the figure is the level reached, which no
  // difference or percent change of two other figures explains.
  const kinds = level && named ? withoutChanges(named) : named;
  const first = makeTarget(scaled, Math.max(rounding(scale), approximate(scaled)), percent, kinds);
  const targets: Target[] = [first];
  if (number.scaleWritten && context.scaleUnknown && !percent) {
    targets.push(retarget(first, number.value, Math.max(rounding(1), approximate(number.value))));
  }
  const decline = direction === "down" || statesDecline(claimText);
  if ((decline || (unsignedWords.test(claimText) && !laterNamedFirst(claimText))) && number.value > 0) {
    for (const target of [...targets]) targets.push(retarget(target, -target.value));
  }
  return targets;
};

const changeKinds: ReadonlySet<DerivationKind> = new Set(["difference", "percent-change"]);
const withoutChanges = (kinds: ReadonlySet<DerivationKind>): ReadonlySet<DerivationKind> =>
  new Set([...kinds].filter((kind) => !changeKinds.has(kind)));

const display = (value: number, decimals: number): string =>
  exactResult(value.toPrecision(15), decimals) ?? String(value);

/** The formula of a match, printed in the claim's scale, with its exact result at the claim's precision. */
const describe = (
  found: Found,
  claimScale: number,
  decimals: number,
): { formula: string; expected: string } => {
  const a = operandText(found.a, claimScale);
  const b = found.b ? operandText(found.b, claimScale) : "";
  const expression = found.b
    ? formulaExpression(found.kind, a, b)
    : found.kind === "percentage"
      ? `${a} * 100`
      : a;
  const expected = exactResult(expression, decimals) ?? display(found.value / claimScale, decimals);
  return { formula: expression === expected ? expression : `${expression} = ${expected}`, expected };
};

/**
 * Whether a derivation's sign comes from figures written as accounting negatives ("(709)"): all of them for
 * sums and differences, any of them for ratios, never for percent changes.
 */
const usesAccountingNegative = (found: Found): boolean => {
  const parts = [...found.a.parts, ...(found.b?.parts ?? [])];
  const parenthesized = (part: (typeof parts)[number]) => part.number.text.startsWith("(");
  // Negating every figure leaves a percent change as it is: its sign is never explained this way.
  if (found.kind === "percent-change") return false;
  const ratio = found.kind === "ratio" || found.kind === "percentage" || found.kind === "percent-of";
  return ratio ? parts.some(parenthesized) : parts.every(parenthesized);
};

const sourceOf = (found: Found): number => found.a.parts[0]?.source ?? -1;

/** The match most about the claim's topic (the first found among equals). */
const mostOnTopic = (context: TraceContext, matches: readonly Found[]): Found | undefined => {
  let best: Found | undefined;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const match of matches) {
    const score = context.topic(match);
    if (score > bestScore) {
      best = match;
      bestScore = score;
    }
  }
  return best;
};

/** The best topic score any match could have: every operand from the figures closest to the claim. */
const bestPossibleTopic = (context: TraceContext): number => {
  const closest = context.rankedOperands()[0];
  return closest ? context.topic({ kind: "value", a: closest, value: closest.value }) : 0;
};

/** A further condition on the derivations of one number (its stated direction). */
type Accept = (found: Found) => boolean;
const acceptAll: Accept = () => true;

const pairsFor = (
  context: TraceContext,
  target: Target,
  maxResults: number,
  accept: Accept = acceptAll,
  firstSuffices?: (first: Found) => boolean,
): Found[] =>
  findPairs(
    context.index,
    context.rankedOperands(),
    target,
    context.limits,
    maxResults,
    (found) =>
      fitsWording(found, context.claimText) &&
      !coarseOffTopic(context, target, found) &&
      !partialPeriodAverage(found, context.claimText, context.rankedOperands()) &&
      !miscountedAverage(found, context.claimText) &&
      accept(found),
    firstSuffices,
  );

/** A sum or average of a run of adjacent figures that explains the target (never a partial average). */
const runMatch = (context: TraceContext, target: Target): Found | undefined =>
  findDirect(context.runs(), target).find(
    (found) =>
      !partialPeriodAverage(found, context.claimText, context.rankedOperands()) &&
      !miscountedAverage(found, context.claimText),
  );

/**
 * A pair derivation, second operands tried closest to the claim first. When the first one found is not as
 * much about the claim as a match could be, the most on-topic of the first few is taken.
 */
const derivation = (context: TraceContext, target: Target, accept: Accept = acceptAll): Found | undefined => {
  // One search: it stops at the first match when that one is as much about the claim as any could be, and
  // otherwise goes on to the first eight (the search is deterministic, so those begin with that first one).
  // The best possible score is worked out only once a match is found: most searches find none.
  let best: number | undefined;
  const onTopic = (found: Found) => {
    best ??= bestPossibleTopic(context);
    return context.topic(found) >= best;
  };
  const matches = pairsFor(context, target, 8, accept, onTopic);
  const first = matches[0];
  if (!first || onTopic(first)) return first;
  return mostOnTopic(context, matches);
};

const search = (context: TraceContext, target: Target): Found | undefined =>
  findDirect(context.index, target)[0] ?? derivation(context, target) ?? runMatch(context, target);

/** A derivation of the second level over the figures closest to the claim, when its wording names both steps. */
const composite = (context: TraceContext, target: Target, accept: Accept): Found | undefined =>
  findComposite(
    context.rankedOperands(),
    target,
    context.claimText,
    (found) =>
      fitsWording(found, context.claimText) && !coarseOffTopic(context, target, found) && accept(found),
  );

/**
 * A sign error that a derivation hides: the number is explained only by figures less about the claim than
 * those explaining its negation (-0.2 from two figures of another row, +0.2 from the row the claim names).
 * Not asked when the wording leaves the sign open ("difference", "decrease"): both signs are then targets.
 */
const betterFlip = (context: TraceContext, targets: readonly Target[], found: Found): Found | undefined => {
  const first = targets[0];
  if (!first || first.value === 0 || targets.some((target) => target.value === -first.value))
    return undefined;
  // Nothing can be more about the claim than a match on the figures closest to it.
  if (context.topic(found) >= bestPossibleTopic(context)) return undefined;
  const flipped = retarget(first, -first.value);
  const best = mostOnTopic(context, [
    ...findDirect(context.index, flipped),
    ...pairsFor(context, flipped, 8),
  ]);
  return best && context.topic(best) > context.topic(found) ? best : undefined;
};

/** A number whose negation the sources explain better: suspicious, with the value it should have. */
const signError = (number: ExtractedNumber, flip: Found): NumberCheck => {
  const percent = number.kind === "percent";
  const claimScale = percent ? 1 : number.scale;
  const { expected, formula } = describe(flip, claimScale, number.decimals);
  return {
    text: number.text,
    span: number.span,
    kind: number.kind,
    status: "suspicious",
    reason: "sign",
    expected: withUnit(expected, claimScale, percent),
    ...(flip.b || flip.kind !== "value" ? { formula } : {}),
    source: sourceOf(flip),
  };
};

/**
 * A change whose sign contradicts the direction the claim states ("fell 19.05%" for a rise of 19.05%):
 * suspicious, with the signed change the sources show.
 */
const directionError = (number: ExtractedNumber, against: Found, scale: number): NumberCheck => {
  const percent = number.kind === "percent";
  const { expected, formula } = describe(against, scale, number.decimals);
  const signed = expected.startsWith("-") ? expected : `+${expected}`;
  return {
    text: number.text,
    span: number.span,
    kind: number.kind,
    status: "suspicious",
    reason: "direction",
    expected: withUnit(signed, scale, percent),
    formula,
    source: sourceOf(against),
  };
};

/**
 * A figure the claim matches only through coarse rounding ("0.2 billion" for 152.5 million, 24% away) is
 * evidence only when it is as much about the claim as any figure could be: a coarsely written number is
 * within the rounding of many unrelated figures.
 */
const coarseOffTopic = (context: TraceContext, target: Target, found: Found): boolean =>
  Math.abs(found.value - target.value) > Math.abs(target.value) * coarseRounding &&
  context.topic(found) < bestPossibleTopic(context);

/** Relative distance beyond which a match by rounding is coarse. */
const coarseRounding = 0.01;

/**
 * Traces one number of the answer: to a source value (exact or within rounding), to a derivation from
 * source values, or, failing that, to the value it probably should have been (suspicious) or to nothing
 * (orphan). `cited` are operands the answer itself quotes, tried first for near misses. `targets` are
 * `targetsOf(number, context.claimText, context)`, the very objects `context.direct` has already been asked
 * about. `direction` is the way the claim says the figure moved ("fell 5%"): a change of the other sign
 * never explains it, and is reported when nothing else does, or when it is more about the claim.
 */
export const traceNumber = (
  number: ExtractedNumber,
  context: TraceContext,
  cited: OperandIndex,
  targets: readonly Target[],
  direction?: Direction,
  change?: NamedChange,
): NumberCheck => {
  const base = { text: number.text, span: number.span, kind: number.kind };
  const percent = number.kind === "percent";
  const claimScale = percent ? 1 : number.scale;
  const decimals = number.decimals;
  const objection = namedChangeObjection(number, context, targets, change);
  for (const target of targets) {
    const direct = context.direct(target).find((found) => !coarseOffTopic(context, target, found));
    if (direct) {
      const objected = objection(direct);
      if (objected) return objected;
      const exact = Math.abs(direct.value - target.value) <= Math.abs(target.value) * 1e-12;
      // An exact match of the value as written needs no calculator to say what it should be.
      const asWritten = exact && direct.kind === "value" && target === targets[0] && decimals <= 20;
      const { expected, formula } = asWritten
        ? { expected: number.value.toFixed(decimals), formula: "" }
        : describe(direct, target === targets[0] ? claimScale : 1, decimals);
      return {
        ...base,
        status: exact ? "exact" : "close",
        expected,
        ...(direct.kind === "percentage" ? { formula } : {}),
        source: sourceOf(direct),
      };
    }
  }
  const guard = directionGuard(direction, number.value, context.topic);
  for (const target of targets) {
    // The target in the claim's scale, or its negation ("fell by 5" is also -5); else the figure as written.
    const scale = Math.abs(target.value) === Math.abs(targets[0]?.value ?? Number.NaN) ? claimScale : 1;
    const agrees = direction === undefined ? acceptAll : guard.accept(scale);
    const found =
      derivation(context, target, agrees) ?? runMatch(context, target) ?? composite(context, target, agrees);
    if (!found || guard.outweighs(found)) continue;
    const objected = objection(found);
    if (objected) return objected;
    const flip = betterFlip(context, targets, found);
    if (flip) return signError(number, flip);
    const { expected, formula } = describe(found, target === targets[0] ? claimScale : 1, decimals);
    return { ...base, status: "derived", expected, formula, source: sourceOf(found), derivation: found.kind };
  }
  const against = guard.strongest();
  if (against) return directionError(number, against.found, against.scale);
  return nearMiss(number, targets, context, cited) ?? { ...base, status: "orphan" };
};

/**
 * A claim that names a change of a row between two periods ("the change in freight costs from 2020 to
 * 2019") says which figures the change is made of: that row's cells of those periods. A match elsewhere (a cell
 * of another row that happens to hold the figure, a difference of two unrelated figures) is a coincidence when
 * the named row's change is another value: the figure is then suspicious, with the value that row gives. A
 * figure whose negation the named row's change is has the wrong sign, wherever else it may be found (the row's
 * own level "(500)" is no change from "—" to it). Asked only once a match is found, and only once per figure.
 */
const namedChangeObjection = (
  number: ExtractedNumber,
  context: TraceContext,
  targets: readonly Target[],
  change: NamedChange | undefined,
): ((found: Found) => NumberCheck | undefined) => {
  if (!change) return () => undefined;
  let read: ReturnType<typeof readNamedChange> | null = null;
  return (found) => {
    if (read === null) {
      const written = makeTarget(
        number.value,
        0.5 * 10 ** -number.decimals * (1 + 1e-9),
        number.kind === "percent",
        undefined,
      );
      read = readNamedChange(change, targets, written, context.rankedOperands());
    }
    if (!read || read.reading.agrees) return undefined;
    const { expected: against, sign } = read.reading;
    // A match as much about the claim as the named row's change is a reading of its own ("the change in
    // percentage of sales represented by other income" names a Sales row, but is about other income).
    const margin = context.topic(against) - context.topic(found);
    if (sign ? margin < 0 : margin <= 0) return undefined;
    if (!sign && read.onNamedRow(found)) return undefined;
    const percent = number.kind === "percent";
    const claimScale = percent ? 1 : number.scale;
    const { expected, formula } = describe(against, read.reading.asWritten ? 1 : claimScale, number.decimals);
    return {
      text: number.text,
      span: number.span,
      kind: number.kind,
      status: "suspicious",
      reason: sign ? "sign" : "near-miss",
      expected: withUnit(expected, claimScale, percent),
      formula,
      source: sourceOf(against),
    };
  };
};

/** Sign flips, scale slips (x1000) and near misses of direct values or of derivations from cited operands. */
const nearMiss = (
  number: ExtractedNumber,
  targets: readonly Target[],
  context: TraceContext,
  cited: OperandIndex,
): NumberCheck | undefined => {
  const base = { text: number.text, span: number.span, kind: number.kind, status: "suspicious" as const };
  const claimScale = number.kind === "percent" ? 1 : number.scale;
  const first = targets[0];
  if (!first) return undefined;
  const variants: { reason: string; target: Target }[] = [
    { reason: "sign", target: retarget(first, -first.value) },
    ...[1e3, 1e-3].map((factor) => ({
      reason: "scale",
      target: retarget(first, first.value * factor, first.tolerance * factor),
    })),
  ];
  for (const { reason, target } of variants) {
    if (target.value === first.value) continue;
    const found = search(context, target);
    // "(709)" in a statement is an outflow of 709: reported as a positive 709 it is right, unless the wording
    // gives the figure a direction ("the change was"), where the sign of a difference is the point.
    const magnitude =
      found !== undefined &&
      reason === "sign" &&
      first.value > 0 &&
      usesAccountingNegative(found) &&
      !(found.kind === "difference" && directionWords.test(context.claimText));
    if (found && magnitude) {
      const { expected, formula } = describe(found, claimScale, number.decimals);
      return {
        ...base,
        status: "derived",
        expected,
        formula: `magnitude of ${formula}`,
        source: sourceOf(found),
        derivation: found.kind,
      };
    }
    if (found) {
      // Shown in the scale the number should have been written in: "-12.6 million", not "-0.0126 billion".
      const shownScale = reason === "scale" ? claimScale * (target.value / first.value) : claimScale;
      const { expected, formula } = describe(found, shownScale, number.decimals);
      return {
        ...base,
        reason,
        expected: withUnit(expected, shownScale, number.kind === "percent"),
        formula,
        source: sourceOf(found),
      };
    }
  }
  const wide = retarget(
    first,
    first.value,
    Math.max(first.tolerance, Math.abs(first.value) * context.nearMissRelative),
  );
  const candidates = [
    ...findPairs(cited, cited.operands, wide, context.limits, 4),
    ...findDirect(context.index, wide),
  ].sort((x, y) => Math.abs(x.value - first.value) - Math.abs(y.value - first.value));
  const best = candidates[0];
  if (!best) return undefined;
  const { expected, formula } = describe(best, claimScale, Math.max(number.decimals, 0));
  return {
    ...base,
    reason: "near-miss",
    expected: withUnit(expected, claimScale, number.kind === "percent"),
    ...(best.b ? { formula } : {}),
    source: sourceOf(best),
  };
};
