import { ratio } from "../model/ratio.js";

/** A stated confidence that the response is supported, and whether it really is. */
export interface ConfidenceOutcome {
  readonly confidence: number;
  readonly supported: boolean;
}

export interface ReliabilityBin {
  readonly lower: number;
  readonly upper: number;
  readonly count: number;
  /** Mean stated confidence in the bin; undefined for an empty bin. */
  readonly meanConfidence: number | undefined;
  /** Share of the bin's records that are supported; undefined for an empty bin. */
  readonly observedSupported: number | undefined;
}

export interface CalibrationMetrics {
  /** Expected calibration error: sum over bins of (bin size / n) * |observed - mean confidence|. */
  readonly ece: number | undefined;
  /** Mean squared difference between confidence and the 0/1 outcome. */
  readonly brier: number | undefined;
  readonly bins: readonly ReliabilityBin[];
}

/** Equal-width bins over [0, 1]; bin i holds [i/k, (i+1)/k), the last bin also holds 1. */
const binIndex = (confidence: number, binCount: number): number =>
  Math.min(binCount - 1, Math.max(0, Math.floor(confidence * binCount)));

export const calibrationMetrics = (
  outcomes: readonly ConfidenceOutcome[],
  binCount = 10,
): CalibrationMetrics => {
  const sums = Array.from({ length: binCount }, () => ({ count: 0, confidence: 0, supported: 0 }));
  let squaredError = 0;
  for (const { confidence, supported } of outcomes) {
    const bin = sums[binIndex(confidence, binCount)]!;
    bin.count += 1;
    bin.confidence += confidence;
    bin.supported += supported ? 1 : 0;
    squaredError += (confidence - (supported ? 1 : 0)) ** 2;
  }
  const bins = sums.map((bin, index) => ({
    lower: index / binCount,
    upper: (index + 1) / binCount,
    count: bin.count,
    meanConfidence: ratio(bin.confidence, bin.count),
    observedSupported: ratio(bin.supported, bin.count),
  }));
  const total = outcomes.length;
  const ece =
    total === 0
      ? undefined
      : sums.reduce(
          (sum, bin) =>
            bin.count === 0
              ? sum
              : sum + (bin.count / total) * Math.abs(bin.supported / bin.count - bin.confidence / bin.count),
          0,
        );
  return { ece, brier: ratio(squaredError, total), bins };
};
