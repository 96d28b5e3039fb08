import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Span } from "../model/span.js";
import { spanIndex } from "./span-index.js";

const span = fc
  .tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 40 }))
  .map(([start, length]): Span => ({ start, end: start + length }));
const meets = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

describe("an index of spans", () => {
  it("finds exactly the spans that meet a span, overlapping or nested ones included", () => {
    fc.assert(
      fc.property(fc.array(span, { maxLength: 60 }), span, (spans, query) => {
        const index = spanIndex(spans);
        const expected = spans.filter((each) => meets(each, query));
        const found = index.meeting(query);
        expect(found.length).toBe(expected.length);
        for (const each of found) expect(meets(each, query)).toBe(true);
        expect(index.meets(query)).toBe(expected.length > 0);
      }),
      { numRuns: 500 },
    );
  });

  it("finds nothing in an empty index", () => {
    expect(spanIndex([]).meeting({ start: 0, end: 5 })).toEqual([]);
    expect(spanIndex([]).meets({ start: 0, end: 5 })).toBe(false);
  });
});
