import { Schema } from "effect";

/** A half-open range of UTF-16 code unit offsets `[start, end)` into a string, as JavaScript indexes strings. */
export const Span = Schema.Struct({
  start: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  end: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
});
/** A half-open `[start, end)` range of UTF-16 offsets into a string (the decoded type of the schema above). */
export type Span = typeof Span.Type;
