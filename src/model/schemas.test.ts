import { Schema } from "effect";
import { describe, expect, it } from "vitest";
import type { ClaimFinding } from "./claim.js";
import { VerificationError } from "./errors.js";
import { LayerResult } from "./layer-result.js";
import { VerificationRequest } from "./request.js";
import { VerificationResult } from "./result.js";
import { RiskProfiles } from "./risk.js";

const claim: ClaimFinding = {
  text: "Revenue was $52.9 million.",
  span: { start: 0, end: 26 },
  kind: "factual",
  verdict: "unsupported",
  score: 0.3,
  evidence: [
    {
      source: 0,
      span: { start: 10, end: 40 },
      text: "Revenue was $48.2 million.",
      score: 0.8,
      relation: "related",
    },
  ],
  issues: [
    {
      code: "NUMBER_NOT_IN_SOURCES",
      message: "52.9 is not in the sources",
      span: { start: 13, end: 17 },
      layer: "grounding",
    },
  ],
  layers: ["grounding"],
};

const result: VerificationResult = {
  verdict: "fail",
  passed: false,
  coverage: 1,
  overallConfidence: 0.3,
  riskLevel: "medium",
  layersRun: [
    {
      layer: "grounding",
      passed: false,
      score: 0.3,
      latencyMs: 1.5,
      details: { claimsChecked: 1 },
      claims: [claim],
    },
  ],
  mitigations: [{ action: "flag-uncertain", reason: "low support", originalText: "x", correctedText: "y" }],
  totalLatencyMs: 2,
  costIncurred: 0,
  claims: [claim],
  skippedLayers: [{ layer: "semantic-entropy", reason: "no model configured" }],
  reasons: ["layer grounding failed"],
};

describe("schemas", () => {
  it("round-trips a VerificationResult through JSON", () => {
    const encoded = JSON.parse(JSON.stringify(Schema.encodeSync(VerificationResult)(result)));
    expect(Schema.decodeUnknownSync(VerificationResult)(encoded)).toEqual(result);
  });

  it("round-trips a request and rejects invalid ones", () => {
    const request = {
      text: "t",
      sources: ["s"],
      riskOverride: "high",
      maxLatencyMs: 100,
      maxCost: 0,
    } as const;
    expect(Schema.decodeUnknownSync(VerificationRequest)(request)).toEqual(request);
    expect(() =>
      Schema.decodeUnknownSync(VerificationRequest)({ text: "t", riskOverride: "extreme" }),
    ).toThrow();
    expect(() => Schema.decodeUnknownSync(VerificationRequest)({ text: "t", maxLatencyMs: -1 })).toThrow();
  });

  it("rejects scores outside [0, 1] and unknown layers", () => {
    const base = { layer: "grounding", passed: true, score: 0.5, latencyMs: 1, details: {} };
    expect(() => Schema.decodeUnknownSync(LayerResult)({ ...base, score: 1.5 })).toThrow();
    expect(() => Schema.decodeUnknownSync(LayerResult)({ ...base, layer: "vibes" })).toThrow();
  });

  it("keeps the risk profiles' layers and confidence floors", () => {
    expect(RiskProfiles.low.layersToRun).toEqual(["semantic-entropy"]);
    expect(RiskProfiles.critical.layersToRun).toHaveLength(5);
    expect(RiskProfiles.high.minConfidence).toBe(0.9);
  });

  it("serializes tagged errors", () => {
    const error = new VerificationError({ message: "boom", layer: "nli" });
    const encoded = Schema.encodeSync(VerificationError)(error);
    expect(encoded).toMatchObject({ _tag: "VerificationError", message: "boom", layer: "nli" });
    expect(Schema.decodeUnknownSync(VerificationError)(encoded)).toBeInstanceOf(VerificationError);
  });
});
