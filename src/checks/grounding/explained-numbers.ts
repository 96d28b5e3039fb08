import type { LayerResult } from "../../model/layer-result.js";
import type { Span } from "../../model/span.js";

/**
 * The numbers layer's statuses that trace a number to the evidence: a figure as written, within rounding or
 * scale ("12.6 million" for 12,600,000), or a derivation from figures of the evidence whose operation the
 * claim or its question names (`named`) and whose direction the claim's words agree with ("grew 19.05%" from
 * $4.2M to $5.0M).
 */
const tracedStatuses: ReadonlySet<unknown> = new Set(["exact", "close", "derived"]);

const isSpan = (value: unknown): value is Span =>
  typeof value === "object" &&
  value !== null &&
  Number.isInteger((value as Span).start) &&
  Number.isInteger((value as Span).end);

/** The span, in the verified text, of a number the numbers layer traced; `derived` when it is a derivation. */
export interface ExplainedNumber extends Span {
  readonly derived: boolean;
}

/**
 * The numbers the numbers layer traced (its `details.validation.numbers`), among the other layers'
 * results of a verification; none when it did not run or its details are not what it writes.
 */
export const explainedNumbers = (others: readonly LayerResult[]): ExplainedNumber[] => {
  const validation = others.find((result) => result.layer === "numbers")?.details.validation;
  const numbers = (validation as { numbers?: unknown } | undefined)?.numbers;
  if (!Array.isArray(numbers)) return [];
  return numbers.flatMap((check: unknown) => {
    const { status, span, named } = (check ?? {}) as { status?: unknown; span?: unknown; named?: unknown };
    // A derivation counts only when the wording named its operation: one found by chance ("2" as 13.8 / 6.86
    // in a summary) explains nothing.
    if (status === "derived" && named !== true) return [];
    return tracedStatuses.has(status) && isSpan(span)
      ? [{ start: span.start, end: span.end, derived: status === "derived" }]
      : [];
  });
};

/** Whether `span` lies within one of the explained numbers. */
export const explainedAt = (explained: readonly ExplainedNumber[], span: Span): ExplainedNumber | undefined =>
  explained.find((number) => number.start <= span.start && span.end <= number.end);

/** Whether a derived number lies within `span` (a claim). */
export const derivedWithin = (explained: readonly ExplainedNumber[], span: Span): boolean =>
  explained.some((number) => number.derived && span.start <= number.start && number.end <= span.end);
