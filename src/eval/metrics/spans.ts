import { ratio } from "../../model/ratio.js";
import type { Span } from "../../model/span.js";

/** Sorted, non-overlapping spans covering the same characters (empty spans dropped). */
export const mergeSpans = (spans: readonly Span[]): readonly Span[] => {
  const sorted = spans.filter((span) => span.end > span.start).sort((a, b) => a.start - b.start);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && span.start <= last.end)
      merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, span.end) };
    else merged.push({ start: span.start, end: span.end });
  }
  return merged;
};

const coveredLength = (spans: readonly Span[]): number =>
  spans.reduce((sum, span) => sum + (span.end - span.start), 0);

/** Character counts of one response: flagged, gold, and flagged-and-gold (overlapping spans counted once). */
export interface CharacterOverlap {
  readonly predictedChars: number;
  readonly goldChars: number;
  readonly overlapChars: number;
}

export const characterOverlap = (predicted: readonly Span[], gold: readonly Span[]): CharacterOverlap => {
  const left = mergeSpans(predicted);
  const right = mergeSpans(gold);
  let overlapChars = 0;
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    const a = left[i]!;
    const b = right[j]!;
    overlapChars += Math.max(0, Math.min(a.end, b.end) - Math.max(a.start, b.start));
    if (a.end <= b.end) i += 1;
    else j += 1;
  }
  return { predictedChars: coveredLength(left), goldChars: coveredLength(right), overlapChars };
};

export interface SpanMetrics {
  /** Records with at least one gold span: the only ones span metrics are computed on. */
  readonly records: number;
  readonly precision: number | undefined;
  readonly recall: number | undefined;
  readonly f1: number | undefined;
}

/** Character-level precision/recall/F1, micro-averaged over the records that have gold spans. */
export const spanMetrics = (
  records: readonly { readonly predicted: readonly Span[]; readonly gold: readonly Span[] }[],
): SpanMetrics => {
  let predictedChars = 0;
  let goldChars = 0;
  let overlapChars = 0;
  let annotated = 0;
  for (const record of records) {
    if (record.gold.length === 0) continue;
    annotated += 1;
    const overlap = characterOverlap(record.predicted, record.gold);
    predictedChars += overlap.predictedChars;
    goldChars += overlap.goldChars;
    overlapChars += overlap.overlapChars;
  }
  return {
    records: annotated,
    precision: ratio(overlapChars, predictedChars),
    recall: ratio(overlapChars, goldChars),
    f1: ratio(2 * overlapChars, predictedChars + goldChars),
  };
};
