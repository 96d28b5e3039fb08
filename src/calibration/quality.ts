import type { LabeledScore } from "./labeled-score.js";
import { calibrationMetrics } from "./reliability.js";

/** How well stated confidences match outcomes; lower is better for all three. */
export interface CalibrationQuality {
  readonly count: number;
  /** Expected calibration error over 10 equal-width bins. */
  readonly ece: number | undefined;
  readonly brier: number | undefined;
  /** Mean negative log-likelihood, with confidences clipped to [1e-12, 1 - 1e-12]. */
  readonly logLoss: number | undefined;
}

const clip = (value: number): number => Math.min(1 - 1e-12, Math.max(1e-12, value));

/** ECE (10 bins, from the eval metrics), Brier score and log-loss of `confidenceOf(score)` against the labels. */
export const calibrationQuality = (
  samples: readonly LabeledScore[],
  confidenceOf: (score: number) => number = (score) => score,
): CalibrationQuality => {
  const outcomes = samples.map((sample) => ({
    confidence: confidenceOf(sample.score),
    supported: sample.supported,
  }));
  const { ece, brier } = calibrationMetrics(outcomes, 10);
  const logLoss =
    outcomes.length === 0
      ? undefined
      : -outcomes.reduce(
          (sum, { confidence, supported }) =>
            sum + Math.log(supported ? clip(confidence) : 1 - clip(confidence)),
          0,
        ) / outcomes.length;
  return { count: samples.length, ece, brier, logLoss };
};
