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
