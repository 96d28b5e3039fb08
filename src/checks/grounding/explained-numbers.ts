import type { LayerResult } from "../../model/layer-result.js";
import type { Span } from "../../model/span.js";

/**
 * The numbers layer's statuses that trace a number to a figure of the evidence: as written, or within rounding
 * or scale ("12.6 million" for 12,600,000). Not "derived": in a dense source a wrong figure is often some
 * difference of two others by chance ("grew by $744.5 million" as 805.1 - 60.6, from two other divisions'
 * sentences), and grounding's literal check is then the only thing that catches it.
 */
const tracedStatuses: ReadonlySet<unknown> = new Set(["exact", "close"]);

const isSpan = (value: unknown): value is Span =>
  typeof value === "object" &&
  value !== null &&
  Number.isInteger((value as Span).start) &&
  Number.isInteger((value as Span).end);

/**
 * The numbers the numbers layer traced (its `details.validation.numbers`), among the other layers'
 * results of a verification; none when it did not run or its details are not what it writes.
 */
export const explainedNumbers = (others: readonly LayerResult[]): Span[] => {
  const validation = others.find((result) => result.layer === "numbers")?.details.validation;
  const numbers = (validation as { numbers?: unknown } | undefined)?.numbers;
  if (!Array.isArray(numbers)) return [];
  return numbers.flatMap((check: unknown) => {
    const { status, span } = (check ?? {}) as { status?: unknown; span?: unknown };
    return tracedStatuses.has(status) && isSpan(span) ? [{ start: span.start, end: span.end }] : [];
  });
};

/** Whether `span` lies within one of the explained numbers. */
export const isExplained = (explained: readonly Span[], span: Span): boolean =>
  explained.some((number) => number.start <= span.start && span.end <= number.end);
