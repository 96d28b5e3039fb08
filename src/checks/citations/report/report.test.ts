import { Either, Schema } from "effect";
import { describe, expect, it } from "vitest";
import { buildGroundedAnalysisPrompt, groundedGenerationSettings } from "../prompts/grounded-analysis.js";
import { scoreFinding, scoreReport } from "./confidence.js";
import { AnalysisReport, Citation, Finding } from "./schemas.js";

const tx = `0x${"ab".repeat(32)}`;

describe("report schemas", () => {
  it.each([
    [{ type: "transaction", value: tx, context: "" }, true],
    [{ type: "transaction", value: "0xfake123", context: "" }, false],
    [{ type: "address", value: `0x${"1".repeat(40)}`, context: "" }, true],
    [{ type: "block", value: "12a", context: "" }, false],
    [{ type: "timestamp", value: "2024-01-15T10:00:00Z", context: "" }, true],
    [{ type: "timestamp", value: "yesterday", context: "" }, false],
  ])("validates the format of %j: %s", (citation, valid) => {
    expect(Either.isRight(Schema.decodeUnknownEither(Citation)(citation))).toBe(valid);
  });

  it.each([
    [{ claim: "x", confidence: 0.9, citations: [], is_inference: false }, false],
    [{ claim: "x", confidence: 0.9, citations: [], is_inference: true }, true],
    [{ claim: "x", confidence: 1.2, citations: [{ type: "block", value: "1", context: "" }] }, false],
    [{ claim: "x", confidence: 0.5, citations: [{ type: "block", value: "1", context: "" }] }, true],
  ])("validates finding %j: %s", (finding, valid) => {
    expect(Either.isRight(Schema.decodeUnknownEither(Finding)(finding))).toBe(valid);
  });

  it("requires at least one finding in a report", () => {
    const report = { query: "q", summary: "s", findings: [], limitations: [], overall_confidence: 0.5 };
    expect(Either.isLeft(Schema.decodeUnknownEither(AnalysisReport)(report))).toBe(true);
  });
});

describe("confidence scoring", () => {
  it.each([
    [
      "one verified citation",
      { isInference: false, citationKinds: ["transaction"], statuses: ["VERIFIED"] },
      0.8,
    ],
    [
      "two kinds, verified",
      { isInference: false, citationKinds: ["transaction", "address"], statuses: ["VERIFIED", "VERIFIED"] },
      1,
    ],
    [
      "an inference with one citation",
      { isInference: true, citationKinds: ["block"], statuses: ["VERIFIED"] },
      0.56,
    ],
    [
      "a mismatch",
      {
        isInference: false,
        citationKinds: ["transaction", "transaction"],
        statuses: ["VERIFIED", "MISMATCH"],
      },
      0.5,
    ],
    [
      "a citation not found",
      {
        isInference: false,
        citationKinds: ["transaction", "transaction"],
        statuses: ["NOT_FOUND", "VERIFIED"],
      },
      0.1,
    ],
    [
      "an uncited statement",
      { isInference: false, citationKinds: [], statuses: [], uncitedStatements: 1 },
      0.24,
    ],
  ] as const)("%s", (_, finding, expected) => {
    expect(scoreFinding(finding)).toBeCloseTo(expected, 6);
  });

  it("weighs the weakest findings most", () => {
    expect(scoreReport([1, 0])).toBeCloseTo((0 * 1 + 1 * 0.5) / 1.5, 6);
    expect(scoreReport([])).toBe(0);
  });
});

describe("grounded generation helpers", () => {
  it("builds a prompt with the evidence, the citation formats and the fallback rule", () => {
    const prompt = buildGroundedAnalysisPrompt({
      evidence: { transactions: [tx] },
      query: "who paid?",
      responseSchema: { type: "object" },
    });
    expect(prompt).toContain(tx);
    expect(prompt).toContain("[TX:0x{64 hex characters}]");
    expect(prompt).toContain("INSUFFICIENT EVIDENCE");
    expect(prompt).toContain("who paid?");
    expect(groundedGenerationSettings.temperature).toBeLessThanOrEqual(0.2);
  });
});
