import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import type { LayerInput } from "../../model/layer.js";
import { segmentClaims } from "../../text/claims.js";
import { makeGroundingLayer } from "./index.js";

const source = [
  "Northwind Robotics reported revenue of $48.2 million for the third quarter of 2025, up 12% from a year earlier.",
  "Chief executive Dana Okafor said the Atlas picking arm shipped to 14 customers during the quarter.",
  "The company did not change its full-year guidance.",
  "The consumer division's sales fell to $16.7 million as older vacuum models were wound down.",
  "Weather in the region was mild, and the local football team won its league.",
  "Separately, the board approved a plan to list the shares on the Helsinki exchange in 2027.",
].join("\n");

const inputFor = (text: string, evidence = source): LayerInput => ({
  text,
  claims: segmentClaims(text),
  evidence: [{ index: 0, origin: "source", text: evidence }],
});

const run = (text: string, evidence = source) =>
  Effect.runSync(makeGroundingLayer().run(inputFor(text, evidence)));
const onlyClaim = (text: string) => {
  const claims = run(text).claims ?? [];
  expect(claims).toHaveLength(1);
  return claims[0]!;
};
const codes = (text: string) => onlyClaim(text).issues.map((issue) => issue.code);

describe("grounding layer", () => {
  it("reads a range of figures as its two ends, and finds a figure the sources lack in either", () => {
    const rangeSource = "The bridge was planned in 1889 and finished in 1925, after 36 years.";
    const numberCodes = (text: string) =>
      (run(text, rangeSource).claims ?? []).flatMap((claim) => claim.issues.map((issue) => issue.code));
    expect(numberCodes("The bridge was built over 1889-1925.")).not.toContain("NUMBER_NOT_IN_SOURCES");
    expect(numberCodes("The bridge was built over 1889-1930.")).toContain("NUMBER_NOT_IN_SOURCES");
    expect(numberCodes("The bridge was built over 1880-1925.")).toContain("NUMBER_NOT_IN_SOURCES");
    // Hyphenated words around a range leave it a range, and the figures before and after it are read.
    const numberFindings = (text: string) => numberCodes(text).filter((code) => code.startsWith("NUMBER_"));
    expect(numberFindings("Over 41 years, 1889-1925, the bridge took 36 years.")).toEqual([
      "NUMBER_MISMATCH",
    ]);
    expect(numberFindings("Over 36 years, 1889-1925, the bridge took 41 years.")).toEqual([
      "NUMBER_NOT_IN_SOURCES",
    ]);
    expect(numberFindings("Over 36 years, 1889-1925, the bridge took 36 years.")).toEqual([]);
    expect(numberCodes("The well-known bridge was built over 1889-1925, start-to-end.")).not.toContain(
      "NUMBER_NOT_IN_SOURCES",
    );
    expect(numberCodes("The well-known bridge was built over 1889-1930, start-to-end.")).toContain(
      "NUMBER_NOT_IN_SOURCES",
    );
  });

  it("supports a faithful paraphrase and points at its evidence", () => {
    const claim = onlyClaim("In the third quarter of 2025 Northwind Robotics had revenue of $48.2 million.");
    expect(claim.verdict).toBe("supported");
    expect(claim.issues).toEqual([]);
    expect(claim.evidence[0]?.text).toContain("$48.2 million");
    expect(source.slice(claim.evidence[0]!.span.start, claim.evidence[0]!.span.end)).toBe(
      claim.evidence[0]!.text,
    );
  });

  it("flags a fabricated number with its span", () => {
    const text = "Northwind Robotics reported revenue of $52.9 million for the third quarter of 2025.";
    const claim = onlyClaim(text);
    // The matching passage states another revenue figure in the same words: a contradiction.
    expect(claim.verdict).toBe("contradicted");
    const issue = claim.issues.find((candidate) => candidate.code === "NUMBER_MISMATCH");
    expect(issue).toBeDefined();
    expect(text.slice(issue!.span.start, issue!.span.end)).toBe("52.9");
  });

  it("accepts a number rounded from the source's", () => {
    expect(onlyClaim("Northwind Robotics reported revenue of $48 million in the quarter.").verdict).toBe(
      "supported",
    );
  });

  it("flags a swapped person", () => {
    const text = "Chief executive Marcus Lindqvist said the Atlas picking arm shipped to 14 customers.";
    const claim = onlyClaim(text);
    expect(claim.verdict).toBe("unsupported");
    const issue = claim.issues.find((candidate) => candidate.code === "ENTITY_NOT_IN_SOURCES");
    expect(text.slice(issue!.span.start, issue!.span.end)).toBe("Marcus Lindqvist");
  });

  it("flags a negation flip as a contradiction", () => {
    const claim = onlyClaim("The company did change its full-year guidance.");
    expect(claim.verdict).toBe("contradicted");
    expect(claim.issues.map((issue) => issue.code)).toContain("NEGATION_MISMATCH");
  });

  it("flags an inserted negation as a contradiction", () => {
    expect(codes("Dana Okafor said the Atlas picking arm never shipped to 14 customers.")).toContain(
      "NEGATION_MISMATCH",
    );
  });

  it.each([
    [
      "a zero-width joiner",
      "Dana Okafor said the Atlas picking arm nev\u200Der shipped to 14 customers.",
      "nev\u200Der",
    ],
    [
      "a soft hyphen",
      "Dana Okafor said the Atlas picking arm nev\u00ADer shipped to 14 customers.",
      "nev\u00ADer",
    ],
    [
      "no-break spaces",
      "Dana Okafor said the Atlas picking arm\u00A0never\u00A0shipped to 14 customers.",
      "never",
    ],
    [
      "a tab and doubled spaces",
      "Dana Okafor said the Atlas picking arm\tnever  shipped to 14 customers.",
      "never",
    ],
  ])("flags a negation written with %s, its span on the text as sent", (_case, text, written) => {
    const issue = onlyClaim(text).issues.find((candidate) => candidate.code === "NEGATION_MISMATCH");
    expect(issue).toBeDefined();
    expect(text.slice(issue?.span.start, issue?.span.end)).toBe(written);
  });

  it("flags a reversed direction as a contradiction", () => {
    const claim = onlyClaim("The consumer division's sales rose to $16.7 million.");
    expect(claim.verdict).toBe("contradicted");
    expect(claim.issues.map((issue) => issue.code)).toContain("DIRECTION_MISMATCH");
  });

  it("accepts a direction stated with a synonym", () => {
    expect(onlyClaim("Sales of the consumer division declined to $16.7 million.").verdict).toBe("supported");
  });

  it("supports a claim found only in a distant passage", () => {
    const claim = onlyClaim("The board approved listing the shares on the Helsinki exchange in 2027.");
    expect(claim.verdict).toBe("supported");
    expect(claim.evidence[0]?.text).toContain("Helsinki");
  });

  it("marks a claim with nothing in the sources as unsupported with a reason", () => {
    const claim = onlyClaim("Quantum annealers will replace warehouse pickers by midsummer.");
    expect(claim.verdict).toBe("unsupported");
    expect(claim.issues.length).toBeGreaterThan(0);
  });

  it("fails the layer when any claim fails, and scores it by the weakest claim", () => {
    const result = run("Northwind opened nothing. Revenue was $48.2 million in the third quarter of 2025.");
    const good = run("Revenue was $48.2 million in the third quarter of 2025.");
    expect(good.passed).toBe(true);
    const bad = run("Revenue was $99.9 million in the third quarter of 2025.");
    expect(bad.passed).toBe(false);
    expect(bad.score).toBeLessThan(good.score);
    expect(result.claims).toHaveLength(2);
  });

  it("is not ready without evidence", () => {
    const layer = makeGroundingLayer();
    const readiness = layer.readiness({ text: "x", claims: [], evidence: [] });
    expect(readiness.ready).toBe(false);
  });

  it("never throws on pathological claims", () => {
    for (const text of ['""""', "...", "1-2-3-4-5", "((((((((", "$$$ 12,34,56", "Q9 Q9 Q9"]) {
      expect(() => run(text)).not.toThrow();
    }
  });
});
