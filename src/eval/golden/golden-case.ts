import { Schema } from "effect";
import { LayerName } from "../../model/layer-name.js";
import { RiskLevel } from "../../model/risk.js";
import { ExpectedAnswer } from "./answer-validator.js";

/**
 * Provenance flags recorded by the system that produced the answer, in snake_case as golden-set files write
 * them: whether the value came from a verified execution, and whether errors or ambiguity were detected.
 */
export const GoldenSignals = Schema.Struct({
  source_verified: Schema.optional(Schema.Boolean),
  error_detected: Schema.optional(Schema.Boolean),
  ambiguity_detected: Schema.optional(Schema.Boolean),
});
export type GoldenSignals = typeof GoldenSignals.Type;

export const GoldenExpectation = Schema.Struct({
  /** The verifier's verdict: true = must pass, false = must be flagged. */
  passed: Schema.Boolean,
  /** The risk tier the verifier must assign (`riskLevel`). */
  tier: Schema.optional(RiskLevel),
  /** Phrases of `text` that must fall inside a flagged claim. */
  flaggedClaims: Schema.optional(
    Schema.Array(Schema.String.pipe(Schema.minLength(1))).pipe(Schema.maxItems(50)),
  ),
  /** Format/value expectations of the answer, checked after the provenance gates. */
  answer: Schema.optional(ExpectedAnswer),
  /** Whether the answer validator must accept the answer; defaults to `passed`. */
  answerValid: Schema.optional(Schema.Boolean),
});
export type GoldenExpectation = typeof GoldenExpectation.Type;

/** One golden-set case: a text to verify, its evidence, and what must come out. */
export const GoldenCase = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1)),
  description: Schema.optional(Schema.String),
  text: Schema.String,
  sources: Schema.optional(Schema.Array(Schema.String).pipe(Schema.maxItems(100))),
  context: Schema.optional(Schema.String),
  question: Schema.optional(Schema.String),
  riskOverride: Schema.optional(RiskLevel),
  layers: Schema.optional(Schema.Array(LayerName)),
  signals: Schema.optional(GoldenSignals),
  expected: GoldenExpectation,
});
export type GoldenCase = typeof GoldenCase.Type;

export const maxGoldenCases = 10_000;

/** A YAML golden-set document: a name and its cases. */
export const GoldenSetDocument = Schema.Struct({
  name: Schema.optional(Schema.String),
  cases: Schema.Array(GoldenCase).pipe(Schema.minItems(1), Schema.maxItems(maxGoldenCases)),
});
