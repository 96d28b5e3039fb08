import { Schema } from "effect";
import { Span } from "../../../model/span.js";

export const NumberStatus = Schema.Literal("exact", "close", "derived", "suspicious", "orphan");
export type NumberStatus = typeof NumberStatus.Type;

/** What the validator concluded about one number of the answer. */
export const NumberCheck = Schema.Struct({
  text: Schema.String,
  span: Span,
  kind: Schema.String,
  status: NumberStatus,
  /** The value the number traces to (exact/close/derived) or should be (suspicious), in the claim's terms. */
  expected: Schema.optional(Schema.String),
  /** How it was derived or should have been: `(0.50 - 0.45) / 0.45 * 100 = 11.11`. */
  formula: Schema.optional(Schema.String),
  /**
   * Why a suspicious number is suspicious: "near-miss", "sign", "scale", "inline-calculation", or "direction"
   * (the claim says it fell, the sources show a rise: `expected` is the signed change, "+0.8 million").
   */
  reason: Schema.optional(Schema.String),
  /** Evidence index of the matched or nearest source number; -1 for a recorded calculator output. */
  source: Schema.optional(Schema.Number),
  /** For a derived number: the operation found ("difference", "percent-change", "sum", "average", "ratio"...). */
  derivation: Schema.optional(Schema.String),
});
export type NumberCheck = typeof NumberCheck.Type;

export const InlineCalculation = Schema.Struct({
  expression: Schema.String,
  span: Span,
  resultSpan: Span,
  written: Schema.String,
  computed: Schema.String,
  correct: Schema.Boolean,
});
export type InlineCalculation = typeof InlineCalculation.Type;

export const PartialAggregation = Schema.Struct({
  text: Schema.String,
  span: Span,
  /** The figure presented as a total. */
  claimedTotal: Schema.String,
  /** The total the source states. */
  sourceTotal: Schema.String,
  /** The items whose sum the claimed total is. */
  items: Schema.Array(Schema.String),
  source: Schema.Number,
});
export type PartialAggregation = typeof PartialAggregation.Type;

/**
 * What numeric validation found in an answer: how many numbers matched a source exactly, and the close
 * matches, derived numbers, orphans (traced to nothing), suspicious near misses, inline calculations and
 * partial aggregations, with what was left unchecked.
 */
export const ValidationResult = Schema.Struct({
  exactMatches: Schema.Number,
  closeMatches: Schema.Array(NumberCheck),
  derived: Schema.Array(NumberCheck),
  orphanNumbers: Schema.Array(NumberCheck),
  suspicious: Schema.Array(NumberCheck),
  inlineCalculations: Schema.Array(InlineCalculation),
  partialAggregations: Schema.Array(PartialAggregation),
  /** Every checked number in text order. */
  numbers: Schema.Array(NumberCheck),
  /** Numbers left unchecked because a limit was reached. */
  skipped: Schema.Number,
  /**
   * Where the numbers of the answer left unchecked stand: first those left when tracing reached `maxTraceWork`
   * (`skippedByWork` of them), then those past `maxAnswerNumbers`.
   */
  skippedSpans: Schema.optional(Schema.Array(Span)),
  /** How many numbers were left unchecked because tracing reached its work bound (`maxTraceWork`). */
  skippedByWork: Schema.optional(Schema.Number),
  /**
   * The evidence held more figures than were read (`maxSourceNumbers`): a number not traced may stand in the
   * part left unread, so it cannot be called wrong.
   */
  sourceTruncated: Schema.optional(Schema.Boolean),
});
export type ValidationResult = typeof ValidationResult.Type;
