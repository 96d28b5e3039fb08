import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { unreadableText } from "./limits.js";

// The definition: a high surrogate not followed by a low one, or a low one not preceded by a high one.
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("unreadableText", () => {
  it("finds a lone surrogate exactly where the definition does, paired ones and NUL apart", () => {
    const unit = fc.constantFrom("a", "é", "\uD83D", "\uDE00", "\uD800", "\uDFFF", "\uD83D\uDE00", " ", "日");
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
        const text = units.join("");
        expect(unreadableText(text) !== undefined).toBe(loneSurrogate.test(text));
      }),
      { numRuns: 3_000 },
    );
    expect(unreadableText("a\u0000b")).toBe("contains a NUL character");
    expect(unreadableText("smile \uD83D\uDE00")).toBeUndefined();
    expect(unreadableText("cut \uD83D")).toBe("contains a lone surrogate (not valid Unicode)");
  });
});
