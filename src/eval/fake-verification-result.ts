import type { ClaimFinding } from "../model/claim.js";
import type { LayerResult } from "../model/layer-result.js";
import type { VerificationResult } from "../model/result.js";

/**
 * A VerificationResult with only the fields a test cares about set; the rest neutral. For tests of the
 * harness, which runs against an injected verify function rather than the real verifier.
 */
export const fakeVerificationResult = (
  fields: Partial<VerificationResult> & { readonly overallConfidence: number },
): VerificationResult => ({
  verdict: (fields.passed ?? fields.overallConfidence >= 0.5) ? "pass" : "fail",
  passed: fields.overallConfidence >= 0.5,
  coverage: 1,
  riskLevel: "low",
  layersRun: [],
  mitigations: [],
  totalLatencyMs: 0,
  costIncurred: 0,
  claims: [],
  skippedLayers: [],
  reasons: [],
  ...fields,
});

export const fakeLayerResult = (
  fields: Partial<LayerResult> & Pick<LayerResult, "layer" | "score">,
): LayerResult => ({
  passed: fields.score >= 0.5,
  latencyMs: 0,
  details: {},
  ...fields,
});

export const fakeClaim = (text: string, start: number, verdict: ClaimFinding["verdict"]): ClaimFinding => ({
  text,
  span: { start, end: start + text.length },
  kind: "factual",
  verdict,
  score: verdict === "supported" ? 1 : 0,
  evidence: [],
  issues: [],
  layers: ["grounding"],
});
