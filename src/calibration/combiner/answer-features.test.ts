import { describe, expect, it } from "vitest";
import type { ClaimFinding } from "../../model/claim.js";
import { answerFeatures, hasJudgedClaims } from "./answer-features.js";

const claim = (fields: Partial<ClaimFinding>): ClaimFinding => ({
  text: "claim",
  span: { start: 0, end: 5 },
  kind: "factual",
  verdict: "supported",
  score: 1,
  evidence: [],
  issues: [],
  layers: ["grounding"],
  ...fields,
});

const signals = { localCoverage: 1, novelty: 0, bestPassageShare: 1, pairShare: 1, contentWords: 4 };

describe("answerFeatures", () => {
  it("takes the mean and the worst claim of each signal, oriented so higher speaks for a hallucination", () => {
    const features = answerFeatures(
      [
        claim({ signals, score: 0.9 }),
        claim({
          signals: { ...signals, bestPassageShare: 0.2, localCoverage: 0.5, novelty: 0.4 },
          score: 0.3,
        }),
      ],
      [],
    );
    expect(features.missingFromBestPassageMean).toBeCloseTo(0.4);
    expect(features.missingFromBestPassageWorst).toBeCloseTo(0.8);
    expect(features.missingNearbyWorst).toBeCloseTo(0.5);
    expect(features.novelWordsWorst).toBeCloseTo(0.4);
    expect(features.lowSupportWorst).toBeCloseTo(0.7);
  });

  it("flags issue codes from any layer and contradicted claims", () => {
    const issue = { code: "SUSPICIOUS_NUMBER", message: "m", span: { start: 0, end: 1 } };
    const features = answerFeatures(
      [claim({ verdict: "contradicted", issues: [issue], layers: ["numbers"] })],
      [],
    );
    expect(features.suspiciousNumber).toBe(1);
    expect(features.contradicted).toBe(1);
    expect(features.valueMismatch).toBe(0);
  });

  it("reads the model-backed layers' doubt and leaves the evidence layers' scores out", () => {
    const layer = (name: "nli" | "grounding", score: number) => ({
      layer: name,
      passed: true,
      score,
      latencyMs: 1,
      details: {},
    });
    expect(answerFeatures([], [layer("nli", 0.7), layer("grounding", 0.1)]).modelLayerDoubt).toBeCloseTo(0.3);
  });

  it("leaves a claim of figures alone out of the word shares", () => {
    const figuresOnly = { ...signals, contentWords: 0, localCoverage: 1, novelty: 0 };
    expect(answerFeatures([claim({ signals: figuresOnly })], []).missingNearbyWorst).toBe(0);
  });

  it("knows when nothing was judged", () => {
    expect(hasJudgedClaims([claim({ verdict: "unverifiable" })])).toBe(false);
    expect(hasJudgedClaims([claim({ verdict: "unsupported" })])).toBe(true);
  });
});
