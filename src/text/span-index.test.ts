import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Span } from "../model/span.js";
import { inTextOrder, lastStartingBy, spanIndex } from "./span-index.js";

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

describe("spans in text order", () => {
  it("are in order when none starts before the one ahead of it ends", () => {
    fc.assert(
      fc.property(fc.array(span, { maxLength: 30 }), (spans) => {
        const expected = spans.every((each, at) => at === 0 || (spans[at - 1] as Span).end <= each.start);
        expect(inTextOrder(spans)).toBe(expected);
      }),
    );
  });

  it("touching spans are in order, overlapping ones are not", () => {
    expect(
      inTextOrder([
        { start: 0, end: 5 },
        { start: 5, end: 9 },
      ]),
    ).toBe(true);
    expect(
      inTextOrder([
        { start: 0, end: 6 },
        { start: 5, end: 9 },
      ]),
    ).toBe(false);
  });

  it("give the last one starting at or before an offset, as a scan from the start does", () => {
    fc.assert(
      fc.property(fc.array(span, { maxLength: 30 }), fc.integer({ min: -5, max: 260 }), (spans, offset) => {
        const sorted = [...spans].sort((a, b) => a.start - b.start);
        let expected = -1;
        for (const [at, each] of sorted.entries()) if (each.start <= offset) expected = at;
        expect(lastStartingBy(sorted, offset)).toBe(expected);
      }),
    );
  });
});
