import { type EvidenceSource, evidenceCharacters } from "../../../model/layer.js";
import type { Span } from "../../../model/span.js";
import { segmentClaims } from "../../../text/claims.js";
import { inTextOrder, lastStartingBy } from "../../../text/span-index.js";
import type { DerivationKind } from "../derive/formula.js";
import { contentWords, type Operand, rankSources } from "../derive/operands.js";
import { derivationsNamed } from "../derive/operation-words.js";
import { prepareSources, type SourcesReader } from "../derive/prepared-sources.js";
import {
  defaultSearchLimits,
  type Found,
  findDirect,
  indexOperands,
  type SearchLimits,
  type Target,
} from "../derive/search.js";
import { defaultMaxSourceNumbers, type SourceNumber } from "../derive/source-numbers.js";
import { extractNumbers } from "../extract/extract-numbers.js";
import { type ExtractedNumber, type ExtractOptions, isQuantity } from "../extract/types.js";
import type { RecordedCalculation } from "../tool/recorder.js";
import { topicScorer } from "./claim-fit.js";
import { findInlineCalculations } from "./inline-calculations.js";
import { namedChange } from "./named-change.js";
import { findPartialAggregation } from "./partial-aggregation.js";
import { statedDirection, writtenAsLevel } from "./stated-direction.js";
import { type TraceContext, targetsOf, traceNumber } from "./trace-number.js";
import type { NumberCheck, PartialAggregation, ValidationResult } from "./validation-result.js";
import { exhausted, type WorkMeter } from "./work-meter.js";

export interface ValidateOptions extends ExtractOptions {
  readonly search?: Partial<SearchLimits>;
  /** A wrong number within this relative distance of a traceable value is suspicious (default 0.1). */
  readonly nearMissRelative?: number;
  /** Extra relative tolerance for "about", "~", "roughly" (default 0.05). */
  readonly approximateRelative?: number;
  /**
   * A number within this relative distance of a traceable value is a close match (default 0: only the
   * rounding of its written precision). A looser tolerance such as 1% (0.01) also accepts figures rounded
   * further than they are written, at the cost of letting small errors through.
   */
  readonly closeRelative?: number;
  /**
   * Most numbers of the answer checked (default 500); the rest are reported as skipped (`skipped`,
   * `skippedSpans`) and their claims are unverifiable.
   */
  readonly maxAnswerNumbers?: number;
  /**
   * Most source numbers read from the evidence (default 250,000: a 10 MB filing is read whole). When the
   * evidence holds more, `sourceTruncated` says so and numbers not traced are unverifiable, not wrong.
   */
  readonly maxSourceNumbers?: number;
  /**
   * Most work spent tracing the answer's numbers (default 30,000,000), counted in source figures read and sums
   * tried: each number's trace may read every figure of the evidence, so it counts as that many, and a claimed
   * total counts each sum of source items it tries against it. About 120 numbers against the 250,000 figures of
   * a 10 MB filing; an answer's 500 against 60,000. The numbers left when it is reached (with the one whose
   * check it cut short) are reported as skipped (`skipped`, `skippedSpans`, `skippedByWork`), and their claims
   * are unverifiable.
   */
  readonly maxTraceWork?: number;
  /** How evidence is read and indexed: `makeSourcesCache()` reuses the work across calls. */
  readonly readSources?: SourcesReader;
}

export interface ValidateInput {
  readonly text: string;
  readonly evidence: readonly EvidenceSource[];
  /** Calculator results recorded while the answer was written: numbers that came from the tool. */
  readonly calculations?: readonly RecordedCalculation[];
  /** The question, used with each claim to rank source numbers by proximity. */
  readonly question?: string;
  /**
   * Claim spans: each number is traced with its own claim's wording. A number no claim holds (and every number
   * when none are given) is traced with the wording of its sentence.
   */
  readonly claims?: readonly { readonly span: { readonly start: number; readonly end: number } }[];
}

const conventionalConstants = new Set([1, 2, 3, 4, 10, 12, 100, 1000]);

/** Calculator outputs as an evidence text of their own (index -1): one result per line. */
const toolEvidence = (calculations: readonly RecordedCalculation[]): EvidenceSource[] =>
  calculations.length === 0
    ? []
    : [{ index: -1, origin: "source", text: calculations.map((call) => call.result).join("\n") }];

const citedOperand = (number: ExtractedNumber, rank: number): Operand => {
  const part: SourceNumber = {
    id: -1 - rank,
    number,
    source: -2,
    values: [number.kind === "percent" ? number.value : number.scaled],
    lineText: "",
    paragraph: -1,
    table: undefined,
    year: undefined,
    periodInYear: undefined,
    isTotal: false,
    inLabel: false,
    scaleUnknown: false,
    percentContext: number.kind === "percent",
    rowHeading: undefined,
    countedNoun: undefined,
  };
  return {
    value: part.values[0] ?? 0,
    raw: undefined,
    parts: [part],
    combine: "value",
    scale: number.kind === "percent" ? 1 : number.scale,
    year: undefined,
    rank,
    isPercent: number.kind === "percent",
  };
};

/**
 * A claim with no words of its own ("-12.6 million", "Answer: 4.35%") says what the question asks: its
 * wording (average, difference, decrease) is the question's.
 */
const bareFigure = (claimText: string): boolean =>
  (claimText.match(/\p{L}{3,}/gu) ?? []).every((word) => figureWords.has(word.toLowerCase()));

/** Words that only qualify a figure: its scale, its unit of percent, "about". */
const figureWords = new Set([
  "answer",
  "approximately",
  "about",
  "roughly",
  "around",
  "thousand",
  "thousands",
  "million",
  "millions",
  "billion",
  "billions",
  "trillion",
  "trillions",
  "percent",
  "per",
  "cent",
]);

/** "Which FY ...", "when", "what was the last fiscal year": a question answered by a period or a choice. */
const asksForPeriod =
  /\b(?:which|when)\b|\bwhat\s+(?:\w+\s+){0,3}?(?:years?|fy|fiscal|periods?|quarters?|dates?)\b/i;

/** "How much", "the average", "the change in": a question answered by an amount. */
const asksForAmount =
  /\bhow\s+(?:much|many)\b|\b(?:average|mean|total|sum|difference|change|increase|decrease|ratio|proportion|percentage|value|amount)\b/i;

/**
 * An answer that is nothing but a figure ("1989"), to a question that asks for an amount and not for a period:
 * the figure is the amount asked for, so a four-digit integer in it is read as that amount, not skipped as a
 * year. Without such a question, "2122" alone could be either and stays a year.
 */
const answersAnAmount = (input: ValidateInput): boolean =>
  input.question !== undefined &&
  asksForAmount.test(input.question) &&
  !asksForPeriod.test(input.question) &&
  bareFigure(input.text);

/**
 * The first of the claims' spans holding `span`, or undefined. Claims in text order that do not overlap (a
 * segmenter's, the verifier's) are searched by halves; any other list is walked in order. An answer's hundreds
 * of numbers each look up their claim, and an answer of 100,000 characters has thousands of claims.
 */
const claimHolding = (claims: readonly Span[], ordered: boolean, span: Span): Span | undefined => {
  const holds = (claim: Span) => claim.start <= span.start && span.end <= claim.end;
  if (!ordered) return claims.find(holds);
  const claim = claims[lastStartingBy(claims, span.start)];
  return claim && holds(claim) ? claim : undefined;
};

/**
 * The wording of the claim a number sits in, and where that claim starts in the text: the caller's claim
 * holding it, else the sentence holding it (the text segmented as verification segments answers, on first
 * need), else the whole text. A number is read with the words of its own claim: read with the whole answer,
 * every number of a long answer would scan all of it, again and again (an answer's 500 numbers against its
 * 100,000 characters took seconds), and a "decline" anywhere would turn the sign of every figure. A bare figure
 * is read as the answer to the question: the question is put before it, and `start` moves back by as much, so
 * offsets into the wording stay those of the text.
 */
const claimFinder = (input: ValidateInput) => {
  const given = input.claims?.map((claim) => claim.span);
  const givenOrdered = given !== undefined && inTextOrder(given);
  let sentences: readonly Span[] | undefined;
  return (number: ExtractedNumber): { text: string; start: number } => {
    let claim = given && claimHolding(given, givenOrdered, number.span);
    if (!claim) {
      sentences ??= segmentClaims(input.text).map((sentence) => sentence.span);
      claim = claimHolding(sentences, true, number.span);
    }
    const own = claim
      ? { text: input.text.slice(claim.start, claim.end), start: claim.start }
      : { text: input.text, start: 0 };
    const question = input.question?.trim();
    if (!question || !bareFigure(own.text)) return own;
    const lead = `${question} `;
    return { text: `${lead}${own.text}`, start: own.start - lead.length };
  };
};

/**
 * The validation of the traced numbers: their checks grouped by status, with the inline calculations, partial
 * aggregations, the spans of the numbers past the answer's bound (left unchecked) and whether the sources were
 * read in part.
 */
const validationOf = (
  numbers: readonly NumberCheck[],
  inlineCalculations: ValidationResult["inlineCalculations"],
  partialAggregations: readonly PartialAggregation[],
  skippedSpans: readonly Span[],
  sourceTruncated: boolean,
  skippedByWork = 0,
): ValidationResult => {
  const withStatus = (status: NumberCheck["status"]) => numbers.filter((n) => n.status === status);
  return {
    exactMatches: withStatus("exact").length,
    closeMatches: withStatus("close"),
    derived: withStatus("derived"),
    orphanNumbers: withStatus("orphan"),
    suspicious: withStatus("suspicious"),
    inlineCalculations,
    partialAggregations,
    numbers,
    skipped: skippedSpans.length,
    ...(skippedSpans.length > 0 ? { skippedSpans } : {}),
    ...(sourceTruncated ? { sourceTruncated: true } : {}),
    ...(skippedByWork > 0 ? { skippedByWork } : {}),
  };
};

/** Work a validation may spend tracing numbers, in source figures read (see `maxTraceWork`). */
export const defaultMaxTraceWork = 30_000_000;

/**
 * Validates every number of a text against the evidence and the recorded calculator outputs: exact and
 * close matches, derivations, suspicious near misses (with the value they should be and its formula),
 * orphans, inline calculations recomputed, and totals built from partial data.
 */
export const validateNumbers = (input: ValidateInput, options: ValidateOptions = {}): ValidationResult => {
  const limits: SearchLimits = { ...defaultSearchLimits, ...options.search };
  const evidence = [...input.evidence, ...toolEvidence(input.calculations ?? [])];
  const maxSourceNumbers = options.maxSourceNumbers ?? defaultMaxSourceNumbers;
  // The extraction keeps its own bound (5,000): an unbounded read made an adversarial answer quadratic.
  const all = extractNumbers(input.text, {
    ...options,
    ...(answersAnAmount(input) ? { yearsAreValues: true } : {}),
  }).filter(isQuantity);
  // An answer without a quantity has nothing to trace, so its sources need no reading (reading them is most of
  // this check's work, and most answers of prose hold no amount). Unless reading could reach the bound on
  // source figures, which the result reports: each figure takes a character of evidence at least, so evidence
  // shorter than the bound cannot.
  if (all.length === 0 && evidenceCharacters(evidence) < maxSourceNumbers)
    return validationOf([], findInlineCalculations(input.text, []), [], [], false);
  const { pool, operandsOf, index, runs } = (options.readSources ?? prepareSources)(evidence, {
    ...options,
    maxNumbers: maxSourceNumbers,
    maxRun: limits.maxRowRun,
  });
  const maxAnswer = options.maxAnswerNumbers ?? 500;
  const answerNumbers = all.slice(0, maxAnswer);
  const inline = findInlineCalculations(input.text, answerNumbers);
  const baseContext = {
    scaleUnknown: pool.scaleUnknown,
    limits,
    nearMissRelative: options.nearMissRelative ?? 0.1,
    approximateRelative: options.approximateRelative ?? 0.05,
    closeRelative: options.closeRelative ?? 0,
  };
  // Direct matches of each target, found once per value asked for: the cited operands, the trace and nothing
  // else ask again, and a figure the answer repeats shares one list (keyed by identity, an answer repeating
  // one figure a thousand times held a thousand copies of every source figure it matched).
  const directMatches = new Map<string, readonly Found[]>();
  const direct = (target: Target): readonly Found[] => {
    const key = `${target.value}|${target.tolerance}|${target.percent}|${target.kinds === undefined ? "*" : [...target.kinds].sort().join(",")}`;
    let found = directMatches.get(key);
    if (!found) {
      found = findDirect(index, target);
      directMatches.set(key, found);
    }
    return found;
  };
  const contextFor = (claimText: string): TraceContext => {
    // The claim's words, read once for the topic score and the proximity ranking.
    const words = contentWords(`${claimText} ${input.question ?? ""}`);
    let ranked: readonly Operand[] | undefined;
    let kinds: { readonly named: ReadonlySet<DerivationKind> | undefined } | undefined;
    const namedKinds = () => {
      kinds ??= { named: derivationsNamed(claimText) };
      return kinds.named;
    };
    // Ranked only when a derivation is searched for: most numbers match a source value directly.
    const rankedOperands = () => {
      if (ranked) return ranked;
      const order = rankSources(pool.numbers, words);
      const list: Operand[] = [];
      for (const number of order) for (const operand of operandsOf.get(number.id) ?? []) list.push(operand);
      ranked = list;
      return list;
    };
    return {
      // Written out, not spread: one context per claim, and a spread copy is slow to build.
      scaleUnknown: baseContext.scaleUnknown,
      limits: baseContext.limits,
      nearMissRelative: baseContext.nearMissRelative,
      approximateRelative: baseContext.approximateRelative,
      closeRelative: baseContext.closeRelative,
      index,
      direct,
      runs,
      rankedOperands,
      claimText,
      namedKinds,
      topic: topicScorer(words),
    };
  };
  const contexts = new Map<string, TraceContext>();
  const context = (claimText: string) => {
    const cached = contexts.get(claimText) ?? contextFor(claimText);
    contexts.set(claimText, cached);
    return cached;
  };
  // Each number's claim, context and targets, read once.
  const claimOf = claimFinder(input);
  const traced = answerNumbers.map((number, at) => {
    const claim = claimOf(number);
    const claimText = claim.text;
    // Numbers are in text order: the claim holds another one when a neighbour falls inside it.
    const before = answerNumbers[at - 1];
    const after = answerNumbers[at + 1];
    const alone =
      !(before && before.span.start >= claim.start) &&
      !(after && after.span.end <= claim.start + claimText.length);
    const traceContext = context(claimText);
    const direction = statedDirection(
      claimText,
      number.span.start - claim.start,
      number.span.end - claim.start,
    );
    return {
      number,
      claimText,
      traceContext,
      direction,
      // "Revenue was $5.2 million in 2019, a change of 4% from 2018": which figure is the change is for the
      // derivations to say; the claim's change is the named row's only when the figure is its one figure.
      change: alone
        ? namedChange(claimText, number.span.start - claim.start, number.span.end - claim.start, direction)
        : undefined,
      targets: targetsOf(
        number,
        claimText,
        traceContext,
        direction,
        writtenAsLevel(claimText, number.span.start - claim.start),
      ),
    };
  });
  // Numbers the answer quotes straight from the sources: the operands a near miss most likely used.
  const cited = indexOperands(
    traced
      .filter(({ targets }) => targets.some((t) => direct(t).length > 0))
      .map(({ number }, rank) => citedOperand(number, rank)),
  );
  const numbers: NumberCheck[] = [];
  const partialAggregations: PartialAggregation[] = [];
  // A number's trace and its partial-aggregation search may each read every source figure: the work is bounded
  // so that an answer of hundreds of figures against evidence of hundreds of thousands cannot hold the check
  // for minutes. The numbers past the bound are left unchecked, as those past `maxAnswerNumbers` are.
  const work: WorkMeter = { spent: 0, limit: options.maxTraceWork ?? defaultMaxTraceWork };
  let tracedCount = traced.length;
  for (let at = 0; at < traced.length; at++) {
    if (work.spent >= work.limit) {
      tracedCount = at;
      break;
    }
    work.spent += pool.numbers.length + 1;
    const { number, claimText, traceContext, direction, change, targets } = traced[
      at
    ] as (typeof traced)[number];
    const calculation = inline.find((c) => c.resultSpan.start === number.span.start);
    const base = { text: number.text, span: number.span, kind: number.kind };
    if (calculation) {
      numbers.push(
        calculation.correct
          ? {
              ...base,
              status: "derived",
              expected: calculation.computed,
              formula: `${calculation.expression} = ${calculation.computed}`,
              derivation: "written-calculation",
            }
          : {
              ...base,
              status: "suspicious",
              reason: "inline-calculation",
              expected: calculation.computed,
              formula: `${calculation.expression} = ${calculation.computed}`,
            },
      );
    } else {
      const check = traceNumber(number, traceContext, cited, targets, direction, change);
      const operandOf = inline.some(
        (c) => c.span.start <= number.span.start && number.span.end <= c.resultSpan.start,
      );
      // "* 100" and "/ 2" in a written calculation are conventions, not figures to find in a source.
      const convention = operandOf && check.status === "orphan" && conventionalConstants.has(number.value);
      numbers.push(
        convention
          ? {
              ...check,
              status: "derived",
              formula: "constant of a written calculation",
              derivation: "written-calculation",
            }
          : check,
      );
    }
    const written = targets.map((t) => ({
      value: t.value,
      tolerance: t.tolerance,
      written: t.value === number.value && number.scaleWritten && pool.scaleUnknown,
    }));
    const partial = findPartialAggregation(claimText, number, written, pool, work);
    if (partial === exhausted) {
      // The number's check is not finished: it is left unchecked with the rest, never passed.
      numbers.pop();
      tracedCount = at;
      break;
    }
    if (partial) partialAggregations.push(partial);
  }
  return validationOf(
    numbers,
    inline,
    partialAggregations,
    [...answerNumbers.slice(tracedCount), ...all.slice(answerNumbers.length)].map((number) => number.span),
    pool.truncated,
    answerNumbers.length - tracedCount,
  );
};
