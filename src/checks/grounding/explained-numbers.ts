import type { LayerResult } from "../../model/layer-result.js";
import type { Span } from "../../model/span.js";

/**
 * The figures another layer traced to the evidence (the numbers layer's `tracedFigures`), among the other
 * layers' results of a verification; none when no such layer ran.
 */
export const explainedNumbers = (others: readonly LayerResult[]): Span[] =>
  others.flatMap((result) => result.tracedFigures ?? []);

/** Whether `span` lies within one of the explained numbers. */
export const isExplained = (explained: readonly Span[], span: Span): boolean =>
  explained.some((number) => number.start <= span.start && span.end <= number.end);

/**
 * The explained numbers that meet a span (a claim's), found by halves over the numbers sorted by start with
 * the furthest end so far: each claim then checks its words against its own few numbers, where checking every
 * number of the answer for every word grew with the square of a long answer. Exact: a number that holds part of
 * a claim meets the claim's span.
 */
export const explainedMeeting = (explained: readonly Span[]): ((span: Span) => Span[]) => {
  const sorted = [...explained].sort((a, b) => a.start - b.start);
  const furthestEnd = new Float64Array(sorted.length);
  let furthest = Number.NEGATIVE_INFINITY;
  for (const [at, number] of sorted.entries()) {
    furthest = Math.max(furthest, number.end);
    furthestEnd[at] = furthest;
  }
  return (span) => {
    // The first number whose furthest end so far reaches past the span's start: none before it can meet it.
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((furthestEnd[middle] as number) <= span.start) low = middle + 1;
      else high = middle;
    }
    const meeting: Span[] = [];
    for (let at = low; at < sorted.length; at++) {
      const number = sorted[at] as Span;
      if (number.start >= span.end) break;
      if (number.end > span.start) meeting.push(number);
    }
    return meeting;
  };
};
