import { Schema } from "effect";
import { ModelLayerName } from "./layer-name.js";

export const RiskLevel = Schema.Literal("low", "medium", "high", "critical");
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
 * The specification's risk profiles. Offline evidence layers are not listed here: they run at every
 * level whenever sources or an evidence store are given; a profile adds the model-backed layers.
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
