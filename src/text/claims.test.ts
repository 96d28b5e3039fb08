import { describe, expect, it } from "vitest";
import { segmentClaims } from "./claims.js";

describe("segmentClaims", () => {
  it("splits at semicolons joining two substantial clauses", () => {
    const text = "Revenue rose to $48 million this year; margins improved to 41 percent overall.";
    expect(segmentClaims(text).map((claim) => claim.text)).toEqual([
      "Revenue rose to $48 million this year",
      "margins improved to 41 percent overall.",
    ]);
  });

  it("keeps short semicolon pieces together", () => {
    expect(segmentClaims("It rose; fast.").map((claim) => claim.text)).toEqual(["It rose; fast."]);
  });

  it.each([
    ["The plant opened in August.", "factual"],
    ["I think the movie is great.", "opinion"],
    ["It may rain tomorrow.", "uncertain"],
    ["Sales fell, which suggests demand is weak.", "inference"],
    ["Did it ship?", "uncertain"],
  ] as const)("classifies %j as %s", (text, kind) => {
    expect(segmentClaims(text)[0]?.kind).toBe(kind);
  });

  it("numbers claims in text order with exact spans", () => {
    const text = "# Heading\n\nFirst claim here. Second claim here.";
    const claims = segmentClaims(text);
    expect(claims.map((claim) => claim.index)).toEqual([0, 1, 2]);
    for (const claim of claims) expect(text.slice(claim.span.start, claim.span.end)).toBe(claim.text);
  });
});
