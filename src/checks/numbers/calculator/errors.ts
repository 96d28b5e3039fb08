import { Schema } from "effect";

/** Why an expression could not be calculated. */
export const CalculationFailure = Schema.Literal(
  "syntax",
  "unknown-name",
  "arity",
  "division-by-zero",
  "domain",
  "too-long",
  "too-deep",
  "out-of-bounds",
);
export type CalculationFailure = typeof CalculationFailure.Type;

/** An expression the calculator refused or could not evaluate. Never thrown: returned as a typed failure. */
export class CalculationError extends Schema.TaggedError<CalculationError>()("CalculationError", {
  message: Schema.String,
  reason: CalculationFailure,
  /** Character offset in the expression where the problem was found, when known. */
  position: Schema.optional(Schema.Number),
}) {}

export const calculationError = (reason: CalculationFailure, message: string, position?: number) =>
  new CalculationError(position === undefined ? { reason, message } : { reason, message, position });
