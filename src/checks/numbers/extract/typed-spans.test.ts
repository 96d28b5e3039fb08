import { describe, expect, it } from "vitest";
import { findTypedSpans } from "./typed-spans.js";

const kinds = (text: string) =>
  findTypedSpans(text).map((typed) => [text.slice(typed.span.start, typed.span.end), typed.kind]);

describe("findTypedSpans", () => {
  it("finds each kind only where the text holds what its pattern needs", () => {
    expect(kinds("Released v2.1 on 2019-03-04 at 10:30, build 0x1F, ticket #12, item A12.")).toEqual([
      ["v2.1", "version"],
      ["2019-03-04", "date"],
      ["10:30", "time"],
      ["0x1F", "identifier"],
      ["#12", "identifier"],
      ["A12", "identifier"],
    ]);
    expect(kinds("Due 12/31/2019 or March 5, 2020 or 5 Jan; 1.2.3 ships at 5 p.m.")).toEqual([
      ["12/31/2019", "date"],
      ["March 5, 2020", "date"],
      ["5 Jan", "date"],
      ["1.2.3", "version"],
      ["5 p.m.", "time"],
    ]);
  });

  it("finds nothing in plain amounts", () => {
    expect(kinds("Revenue rose to $638.8 million in the fourth quarter of 2023, up 5.2%.")).toEqual([]);
  });
});
