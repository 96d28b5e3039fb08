import type { Span } from "../../../model/span.js";
import type { ValidationResult } from "../validate/validation-result.js";

/**
 * The spans of the figures traced to a figure of the evidence, as written ("exact") or within rounding or
 * scale ("close"). Not "derived": in a dense source a wrong figure is often some difference of two others by
 * chance ("grew by $744.5 million" as 805.1 - 60.6, from two other divisions' sentences), and grounding's
 * literal check is then the only thing that catches it.
 */
export const tracedFigures = (validation: ValidationResult): Span[] =>
  validation.numbers
    .filter((number) => number.status === "exact" || number.status === "close")
    .map((number) => ({ start: number.span.start, end: number.span.end }));
