import { Schema } from "effect";

/** What a golden answer must look like, checked only after the source gates pass. */
export const ExpectedAnswer = Schema.Struct({
  valueType: Schema.optional(Schema.Literal("number", "integer", "percent", "boolean", "text")),
  /** The expected value: numbers compare within `tolerance`, text case-insensitively. */
  value: Schema.optional(Schema.Union(Schema.Number, Schema.String, Schema.Boolean)),
  /** Relative tolerance for numeric values (0.01 = 1%). */
  tolerance: Schema.optional(Schema.Number.pipe(Schema.between(0, 1))),
  /** Phrases the answer must contain (case-insensitive). */
  contains: Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(50))),
});
export type ExpectedAnswer = typeof ExpectedAnswer.Type;

/** Provenance flags of an answer; an absent `sourceVerified` means unverified (conservative default). */
export interface AnswerSignals {
  readonly sourceVerified?: boolean | undefined;
  readonly errorDetected?: boolean | undefined;
  readonly ambiguityDetected?: boolean | undefined;
}

export type AnswerFailure = "hallucination" | "error" | "ambiguity" | "format";

export type AnswerValidation =
  | { readonly valid: true; readonly reason: string }
  | { readonly valid: false; readonly failure: AnswerFailure; readonly reason: string };

const fail = (failure: AnswerFailure, reason: string): AnswerValidation => ({
  valid: false,
  failure,
  reason,
});

/** Every number in the answer, in order (thousands separators allowed). */
export const numbersIn = (answer: string): readonly number[] =>
  [...answer.matchAll(/-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g)].map((match) =>
    Number(match[0].replaceAll(",", "")),
  );

const formatProblem = (answer: string, expected: ExpectedAnswer): string | undefined => {
  const lower = answer.toLowerCase();
  const numbers = numbersIn(answer);
  switch (expected.valueType) {
    case "number":
      if (numbers.length === 0) return "expected a number";
      break;
    case "integer":
      if (!numbers.some(Number.isInteger)) return "expected an integer";
      break;
    case "percent":
      if (numbers.length === 0 || !/%|percent/i.test(answer)) return "expected a percentage";
      break;
    case "boolean":
      if (!/\b(yes|no|true|false)\b/i.test(answer)) return "expected yes/no";
      break;
    default:
      break;
  }
  for (const phrase of expected.contains ?? []) {
    if (!lower.includes(phrase.toLowerCase())) return `expected the answer to contain "${phrase}"`;
  }
  const value = expected.value;
  if (typeof value === "number") {
    if (numbers.length === 0) return `expected the value ${value}, found no number`;
    const tolerance = expected.tolerance ?? 0;
    const matches = (number: number) =>
      Math.abs(number - value) <= tolerance * Math.max(Math.abs(value), Number.EPSILON);
    if (!numbers.some(matches))
      return `expected ${value} (tolerance ${tolerance}), got ${numbers.join(", ")}`;
  } else if (typeof value === "string" && !lower.includes(value.toLowerCase())) {
    return `expected "${value}"`;
  } else if (
    typeof value === "boolean" &&
    !new RegExp(`\\b(${value ? "yes|true" : "no|false"})\\b`, "i").test(answer)
  ) {
    return `expected ${value ? "yes" : "no"}`;
  }
  return undefined;
};

/**
 * Validates a golden-set answer. The provenance gates run first and block before any format check:
 * an unverified source (false or absent), a detected error or a detected ambiguity each fail the answer,
 * so a well-formatted hallucination is never counted as correct. Then the format/value expectations.
 */
export const validateAnswer = (
  answer: string,
  expected: ExpectedAnswer,
  signals: AnswerSignals,
): AnswerValidation => {
  if (signals.sourceVerified !== true) {
    const shown = signals.sourceVerified === undefined ? "missing" : "false";
    return fail(
      "hallucination",
      `HALLUCINATION: value not from verified execution (source_verified=${shown})`,
    );
  }
  if (signals.errorDetected === true)
    return fail("error", "ERROR: verification had errors (error_detected=true)");
  if (signals.ambiguityDetected === true) {
    return fail("ambiguity", "AMBIGUITY: the result is ambiguous (ambiguity_detected=true)");
  }
  const problem = formatProblem(answer, expected);
  if (problem !== undefined) return fail("format", `FORMAT: ${problem}`);
  return { valid: true, reason: "OK: source verified and format matches" };
};

/** `validateAnswer` under a namespace, for callers that write `AnswerValidator.validate(...)`. */
export const AnswerValidator = { validate: validateAnswer } as const;
