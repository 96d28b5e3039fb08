import type { Span } from "../model/span.js";

/** Spans looked up by where they meet another span (share at least one character with it). */
export interface SpanIndex {
  /** The indexed spans that meet `span`, in order of their start. */
  readonly meeting: (span: Span) => Span[];
  /** Whether any indexed span meets `span`. */
  readonly meets: (span: Span) => boolean;
}

/**
 * An index of spans sorted by start, each with the furthest end among it and those before it, so both questions
 * are answered by a search by halves plus the spans that do meet: comparing a span with every indexed span
 * instead grows with the product of the two counts (every word of a long answer against every figure of it).
 */
export const spanIndex = (spans: readonly Span[]): SpanIndex => {
  const sorted = [...spans].sort((a, b) => a.start - b.start);
  // A plain array: an index lives for one look-up or one text, and a typed array this long keeps a backing
  // store outside the heap, which costs more to make than the array is used.
  const furthestEnd: number[] = [];
  let furthest = Number.NEGATIVE_INFINITY;
  for (const span of sorted) {
    furthest = Math.max(furthest, span.end);
    furthestEnd.push(furthest);
  }
  /** The first position where `beyond(position)` holds; it holds from there on. */
  const firstWhere = (beyond: (position: number) => boolean): number => {
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (beyond(middle)) high = middle;
      else low = middle + 1;
    }
    return low;
  };
  return {
    meeting: (span) => {
      // Before the first span whose furthest end so far passes the start, none can meet it.
      const from = firstWhere((at) => (furthestEnd[at] as number) > span.start);
      const found: Span[] = [];
      for (let at = from; at < sorted.length; at++) {
        const candidate = sorted[at] as Span;
        if (candidate.start >= span.end) break;
        if (candidate.end > span.start) found.push(candidate);
      }
      return found;
    },
    meets: (span) => {
      // The spans starting before the end: the furthest end among them decides.
      const before = firstWhere((at) => (sorted[at] as Span).start >= span.end);
      return before > 0 && (furthestEnd[before - 1] as number) > span.start;
    },
  };
};

/** Whether spans are in text order, none overlapping the next (a segmenter's claims are). */
export const inTextOrder = (spans: readonly Span[]): boolean => {
  for (let at = 1; at < spans.length; at++)
    if ((spans[at] as Span).start < (spans[at - 1] as Span).end) return false;
  return true;
};

/**
 * Of spans sorted by start, the position of the last one starting at or before `offset`, found by halves; -1
 * when none does. Of spans in text order that do not overlap, it is the only one that can hold a span starting
 * at `offset`.
 */
export const lastStartingBy = (spans: readonly Span[], offset: number): number => {
  let low = 0;
  let high = spans.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((spans[middle] as Span).start <= offset) low = middle + 1;
    else high = middle;
  }
  return low - 1;
};
