import { Schema } from "effect";
import { timestampProblem } from "../extract/format-checks.js";

export const CitationType = Schema.Literal(
  "transaction",
  "address",
  "block",
  "timestamp",
  "url",
  "commit",
  "adr",
  "issue",
);
export type CitationType = typeof CitationType.Type;

const formatRules: Readonly<Record<CitationType, (value: string) => boolean>> = {
  transaction: (value) => /^0x[0-9a-fA-F]{64}$/.test(value),
  address: (value) => /^0x[0-9a-fA-F]{40}$/.test(value),
  block: (value) => /^\d{1,12}$/.test(value),
  timestamp: (value) => timestampProblem(value) === undefined,
  url: (value) => /^https?:\/\/\S{1,2048}$/.test(value),
  commit: (value) => /^[0-9a-f]{7,40}$/.test(value),
  adr: (value) => /^\d{1,4}$/.test(value),
  issue: (value) => /^\d{1,7}$/.test(value),
};

/**
 * A citation as a model writes it in an analysis report: its type, its value in that type's format, and the
 * text around it. A value that does not match its type's format is refused when the report is decoded.
 */
export const Citation = Schema.Struct({
  type: CitationType,
  value: Schema.String,
  context: Schema.String.pipe(Schema.maxLength(2000)),
}).pipe(
  Schema.filter(
    (citation) =>
      formatRules[citation.type](citation.value) || `invalid ${citation.type} format: ${citation.value}`,
  ),
);
export type Citation = typeof Citation.Type;

/**
 * One finding of an analysis report: a claim, the confidence the model gave it, and its citations. A finding
 * not marked as an inference needs at least one citation.
 */
export const Finding = Schema.Struct({
  claim: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(4000)),
  confidence: Schema.Number.pipe(Schema.between(0, 1)),
  citations: Schema.Array(Citation).pipe(Schema.maxItems(200)),
  is_inference: Schema.optionalWith(Schema.Boolean, { default: () => false }),
}).pipe(
  Schema.filter(
    (finding) =>
      finding.is_inference ||
      finding.citations.length > 0 ||
      "non-inference claims require at least one citation",
  ),
);
export type Finding = typeof Finding.Type;

/** A full report: at least one finding (or an explicit "no findings" one). */
export const AnalysisReport = Schema.Struct({
  query: Schema.String,
  summary: Schema.String,
  findings: Schema.Array(Finding).pipe(Schema.minItems(1), Schema.maxItems(500)),
  limitations: Schema.Array(Schema.String).pipe(Schema.maxItems(100)),
  overall_confidence: Schema.Number.pipe(Schema.between(0, 1)),
});
export type AnalysisReport = typeof AnalysisReport.Type;

/** Decodes model output (already parsed JSON) into a report, or a ParseError saying what is wrong. */
export const decodeAnalysisReport = Schema.decodeUnknown(AnalysisReport);
