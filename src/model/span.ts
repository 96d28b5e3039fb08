import { Schema } from "effect";

/** A half-open range of UTF-16 code unit offsets `[start, end)` into a string, as JavaScript indexes strings. */
export const Span = Schema.Struct({
  start: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
  end: Schema.Number.pipe(Schema.int(), Schema.nonNegative()),
});
export type Span = typeof Span.Type;
