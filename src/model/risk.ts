import { Schema } from "effect";
import { ModelLayerName } from "./layer-name.js";

/**
 * How much harm a wrong answer could do: `low`, `medium`, `high` or `critical`. The level picks the risk
 * profile, that is which model-backed layers run, the confidence they must reach, and the latency and cost
 * budget; at `critical` risk any unsupported claim fails the answer.
 */
export const RiskLevel = Schema.Literal("low", "medium", "high", "critical");
/** A risk level: low, medium, high or critical (the decoded type of the schema above). */
export type RiskLevel = typeof RiskLevel.Type;

export const riskLevels: readonly RiskLevel[] = RiskLevel.literals;

export const RiskProfile = Schema.Struct({
  layersToRun: Schema.Array(ModelLayerName),
  minConfidence: Schema.Number.pipe(Schema.between(0, 1)),
  maxLatencyMs: Schema.Number.pipe(Schema.positive()),
  maxCost: Schema.Number.pipe(Schema.nonNegative()),
});
export type RiskProfile = typeof RiskProfile.Type;

/**
 * The model-backed layers each risk level runs, with the score they must reach and the latency and cost
 * budget: low risk runs semantic entropy alone, each level up adds layers and raises the floor, and critical
 * risk runs all five. Offline evidence layers are not listed here: they run at every level whenever sources
 * or an evidence store are given.
 */
export const RiskProfiles: Readonly<Record<RiskLevel, RiskProfile>> = {
  low: { layersToRun: ["semantic-entropy"], minConfidence: 0.7, maxLatencyMs: 2000, maxCost: 0.001 },
  medium: {
    layersToRun: ["semantic-entropy", "fact-decomposition"],
    minConfidence: 0.8,
    maxLatencyMs: 5000,
    maxCost: 0.01,
  },
  high: {
    layersToRun: ["semantic-entropy", "fact-decomposition", "multi-source", "self-consistency"],
    minConfidence: 0.9,
    maxLatencyMs: 10000,
    maxCost: 0.05,
  },
  critical: {
    layersToRun: ["semantic-entropy", "fact-decomposition", "multi-source", "self-consistency", "nli"],
    minConfidence: 0.95,
    maxLatencyMs: 30000,
    maxCost: 0.1,
  },
};
