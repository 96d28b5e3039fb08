import { Schema } from "effect";
import { defaultCalculatorLimits } from "../../checks/numbers/index.js";
import { MemoryCandidate } from "../../memory/index.js";

/** Limits on what one tool call may send: every list a caller can grow is bounded. */
export const mcpLimits = {
  maxTextChars: 100_000,
  maxSourceChars: 200_000,
  maxSources: 100,
  maxCalculations: 1_000,
  maxQueryChars: 1_000,
  maxSearchResults: 100,
} as const;

const Text = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(mcpLimits.maxTextChars)).annotations({
  description: "The text to check (an answer, a draft).",
});
const Sources = Schema.Array(Schema.String.pipe(Schema.maxLength(mcpLimits.maxSourceChars)))
  .pipe(Schema.maxItems(mcpLimits.maxSources))
  .annotations({ description: "Source documents the text should be grounded in." });
const Context = Schema.String.pipe(Schema.maxLength(mcpLimits.maxSourceChars)).annotations({
  description: "Conversation context or retrieved passages; counts as evidence after sources.",
});
const Question = Schema.String.pipe(Schema.maxLength(mcpLimits.maxQueryChars)).annotations({
  description: "The question the text answers.",
});
const Identifier = Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200));

export const VerifyInput = Schema.Struct({
  text: Text,
  sources: Schema.optional(Sources),
  context: Schema.optional(Context),
  question: Schema.optional(Question),
  strict: Schema.optional(Schema.Boolean).annotations({ description: "Any skipped layer fails." }),
});

export const CheckGroundingInput = Schema.Struct({
  text: Text,
  sources: Schema.optional(Sources),
  context: Schema.optional(Context),
});

export const ValidateNumbersInput = Schema.Struct({
  text: Text,
  sources: Sources,
  calculations: Schema.optional(
    Schema.Array(Schema.Struct({ expression: Schema.String, result: Schema.String })).pipe(
      Schema.maxItems(mcpLimits.maxCalculations),
    ),
  ).annotations({ description: "Results of `calculate` calls used while writing the text." }),
  question: Schema.optional(Question),
});

export const CalculateInput = Schema.Struct({
  expression: Schema.String.pipe(
    Schema.minLength(1),
    Schema.maxLength(defaultCalculatorLimits.maxLength),
  ).annotations({ description: "An arithmetic expression, e.g. (0.50 - 0.45) / 0.45 * 100" }),
});

export const VerifyCitationsInput = Schema.Struct({
  text: Text,
  sources: Schema.optional(Sources),
});

/** The memory gate's own MemoryCandidate, with `validUntil` as an ISO 8601 string (JSON has no dates). */
export const IngestMemoryInput = Schema.Struct({
  ...MemoryCandidate.fields,
  userId: Schema.optional(MemoryCandidate.fields.userId).annotations({
    description: "The memory's owner; a server started for one user (`--user`) acts for that user only.",
  }),
  validUntil: Schema.optional(Schema.String).annotations({ description: "ISO 8601 expiry instant." }),
});

export const SearchMemoryInput = Schema.Struct({
  userId: Schema.optional(Identifier).annotations({
    description:
      "Whose memories to search; a server started for one user (`--user`) acts for that user only.",
  }),
  query: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(mcpLimits.maxQueryChars)),
  limit: Schema.optional(Schema.Int.pipe(Schema.between(1, mcpLimits.maxSearchResults))),
});
