import { type CalibrationMetrics, calibrationMetrics } from "../../calibration/reliability.js";
import type { RecordPrediction } from "../prediction.js";
import { auroc } from "./auroc.js";
import { countConfusion, type DetectionMetrics, detectionMetrics } from "./confusion.js";
import { type LatencyMetrics, latencyMetrics } from "./latency.js";
import { type SpanMetrics, spanMetrics } from "./spans.js";
import { addUsage, noUsage, type Usage } from "./usage.js";

/** Every metric of one group of predictions (a dataset, a task, or everything). */
export interface GroupMetrics extends DetectionMetrics {
  readonly auroc: number | undefined;
  readonly positives: number;
  readonly negatives: number;
  /** Records whose verification failed (counted as flagged). */
  readonly errors: number;
  readonly spans: SpanMetrics;
  /** Calibration of overallConfidence against "supported", over records that were verified. */
  readonly calibration: CalibrationMetrics;
  readonly latency: LatencyMetrics;
  readonly usage: Usage;
}

export const groupMetrics = (predictions: readonly RecordPrediction[]): GroupMetrics => {
  const counts = countConfusion(
    predictions.map((prediction) => ({
      actual: prediction.label === "hallucinated",
      predicted: prediction.predicted,
    })),
  );
  const verified = predictions.filter((prediction) => prediction.confidence !== undefined);
  return {
    ...detectionMetrics(counts),
    auroc: auroc(
      predictions.map((prediction) => ({
        score: prediction.score,
        actual: prediction.label === "hallucinated",
      })),
    ),
    positives: counts.tp + counts.fn,
    negatives: counts.tn + counts.fp,
    errors: predictions.length - verified.length,
    spans: spanMetrics(
      predictions.map((prediction) => ({
        predicted: prediction.flaggedClaims.map((claim) => claim.span),
        gold: prediction.goldSpans,
      })),
    ),
    calibration: calibrationMetrics(
      verified.map((prediction) => ({
        confidence: prediction.confidence!,
        supported: prediction.label === "supported",
      })),
    ),
    latency: latencyMetrics(predictions.map((prediction) => prediction.latencyMs)),
    usage: predictions.reduce((sum, prediction) => addUsage(sum, prediction.usage), noUsage),
  };
};
