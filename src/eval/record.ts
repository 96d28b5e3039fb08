import { Schema } from "effect";

/** A hallucinated part of a response: `[start, end)` character offsets into `response`. */
export const GoldSpan = Schema.Struct({
  start: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  end: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  text: Schema.optional(Schema.String),
});
export type GoldSpan = typeof GoldSpan.Type;

export const RecordLabel = Schema.Literal("supported", "hallucinated");
export type RecordLabel = typeof RecordLabel.Type;

/** One labelled response in the common JSONL form of the shared benchmarks (see docs/EVALUATION.md). */
export const EvalRecord = Schema.Struct({
  id: Schema.String.pipe(Schema.minLength(1)),
  dataset: Schema.String.pipe(Schema.minLength(1)),
  task: Schema.String,
  context: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  question: Schema.optionalWith(Schema.NullOr(Schema.String), { default: () => null }),
  response: Schema.String,
  label: RecordLabel,
  spans: Schema.optionalWith(Schema.Array(GoldSpan), { default: () => [] }),
  meta: Schema.optionalWith(Schema.Record({ key: Schema.String, value: Schema.Unknown }), {
    default: () => ({}),
  }),
});
export type EvalRecord = typeof EvalRecord.Type;

/** The split a record declares in `meta.split`, when it declares one. */
export const declaredSplit = (record: EvalRecord): string | undefined => {
  const split = record.meta.split;
  return typeof split === "string" && split.length > 0 ? split : undefined;
};
