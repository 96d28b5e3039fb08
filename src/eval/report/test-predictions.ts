import type { RecordPrediction } from "../prediction.js";

/** A prediction for report tests, with neutral defaults. */
export const samplePrediction = (
  fields: Partial<RecordPrediction> & Pick<RecordPrediction, "id" | "label" | "score">,
): RecordPrediction => ({
  dataset: "demo",
  task: "general",
  split: undefined,
  response: "The tower was built in 1823.",
  passed: fields.score < 0.5,
  verdict: fields.score < 0.5 ? "pass" : "fail",
  confidence: 1 - fields.score,
  predicted: fields.score >= 0.5,
  latencyMs: 1.5,
  failingLayers: [],
  skippedLayers: [],
  layerScores: [],
  flaggedClaims: [],
  goldSpans: [],
  usage: { llmCalls: 0, tokens: 0, cost: 0 },
  error: undefined,
  ...fields,
});
