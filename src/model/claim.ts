import { Schema } from "effect";
import { LayerName } from "./layer-name.js";
import { Span } from "./span.js";

export const ClaimKind = Schema.Literal("factual", "opinion", "inference", "uncertain");
export type ClaimKind = typeof ClaimKind.Type;

/**
 * A claim's verdict: `supported` (the evidence backs it), `unsupported` (the evidence does not back it),
 * `contradicted` (the evidence says otherwise) or `unverifiable` (nothing could check it: no evidence that
 * bears on it, or no layer that ran judged it). Only `unsupported` and `contradicted` count as failing.
 */
export const ClaimVerdict = Schema.Literal("supported", "unsupported", "contradicted", "unverifiable");
/** A claim's verdict: supported, unsupported, contradicted or unverifiable (the decoded type of the schema above). */
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
/** A passage of a source that bears on a claim, with its offsets and score (the decoded type of the schema above). */
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
/** One concrete problem with a claim, with its code, message and offsets (the decoded type of the schema above). */
export type ClaimIssue = typeof ClaimIssue.Type;

/**
 * What an evidence check measured of a claim, beside its verdict: the answer's combiner reads these, and a
 * person can see why a claim scored as it did. Shares are IDF-weighted (a rare word counts more than a
 * common one) unless named otherwise.
 */
export const ClaimSignals = Schema.Struct({
  /**
   * Share of the claim's words found in its best-matching passages and their neighbours. Figures are left
   * out of these shares: the numbers checks judge them.
   */
  localCoverage: Schema.Number.pipe(Schema.between(0, 1)),
  /** Share of the claim's words found nowhere in the sources. */
  novelty: Schema.Number.pipe(Schema.between(0, 1)),
  /** Share of the claim's distinct content words (unweighted) found in one passage, the best of those aligned. */
  bestPassageShare: Schema.Number.pipe(Schema.between(0, 1)),
  /**
   * Share of the claim's pairs of neighbouring content words found as neighbours in its best-matching
   * passages: low when the words are all there but joined differently ("A beat B" against "B beat A").
   */
  pairShare: Schema.Number.pipe(Schema.between(0, 1)),
  /** The claim's distinct content words, stopwords and figures left out: 0 when the shares say nothing. */
  contentWords: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
});
export type ClaimSignals = typeof ClaimSignals.Type;

/**
 * One claim of the verified text and what the layers found of it: its verdict and support score, the evidence
 * for or against it, its issues, and the layers that judged it. A claim no layer judged is reported as
 * `unverifiable`, never as `supported`.
 */
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
  /** What the grounding check measured of the claim, when it judged it. */
  signals: Schema.optional(ClaimSignals),
});
/** One claim with its verdict, score, evidence and issues (the decoded type of the schema above). */
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
