import { Schema } from "effect";
import { LayerName } from "./layer-name.js";
import { Span } from "./span.js";

export const ClaimKind = Schema.Literal("factual", "opinion", "inference", "uncertain");
export type ClaimKind = typeof ClaimKind.Type;

export const ClaimVerdict = Schema.Literal("supported", "unsupported", "contradicted", "unverifiable");
export type ClaimVerdict = typeof ClaimVerdict.Type;

/** A passage of a source that supports or contradicts a claim. */
export const Evidence = Schema.Struct({
  /** Index into the evidence list: the request's `sources` in order, then its `context` if given. */
  source: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  span: Span,
  text: Schema.String,
  score: Schema.Number.pipe(Schema.between(0, 1)),
  relation: Schema.optional(Schema.Literal("supports", "contradicts", "related")),
});
export type Evidence = typeof Evidence.Type;

/** One concrete problem with a claim: a number not in the sources, a swapped entity, a flipped negation... */
export const ClaimIssue = Schema.Struct({
  code: Schema.String,
  message: Schema.String,
  /** Offsets into the verified text (not into the claim). */
  span: Span,
  layer: Schema.optional(LayerName),
  /** What the value should be, when a check knows it (e.g. a recomputed number). */
  expected: Schema.optional(Schema.String),
});
export type ClaimIssue = typeof ClaimIssue.Type;

export const ClaimFinding = Schema.Struct({
  text: Schema.String,
  /** Offsets into the verified text. */
  span: Span,
  kind: ClaimKind,
  verdict: ClaimVerdict,
  /** Support for the claim in [0, 1]: 1 is fully supported. */
  score: Schema.Number.pipe(Schema.between(0, 1)),
  evidence: Schema.Array(Evidence),
  issues: Schema.Array(ClaimIssue),
  /** The layers that judged this claim. */
  layers: Schema.Array(LayerName),
});
export type ClaimFinding = typeof ClaimFinding.Type;

const verdictSeverity: Record<ClaimVerdict, number> = {
  supported: 0,
  unverifiable: 1,
  unsupported: 2,
  contradicted: 3,
};

/** The more severe of two verdicts: contradicted > unsupported > unverifiable > supported. */
export const worseVerdict = (a: ClaimVerdict, b: ClaimVerdict): ClaimVerdict =>
  verdictSeverity[a] >= verdictSeverity[b] ? a : b;

export const isFailingVerdict = (verdict: ClaimVerdict): boolean =>
  verdict === "unsupported" || verdict === "contradicted";
