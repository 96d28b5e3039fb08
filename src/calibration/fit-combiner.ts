import { Either } from "effect";
import { InputError } from "../model/errors.js";
import { mulberry32 } from "../model/mulberry32.js";
import { type AnswerFeatures, answerFeatureNames } from "./combiner/answer-features.js";
import type { CombinerModel } from "./combiner/combiner.js";
import { fitPlatt } from "./fit-platt.js";

/** One verified answer of a labelled set: its features and whether a person judged it hallucinated. */
export interface CombinerSample {
  readonly features: AnswerFeatures;
  readonly hallucinated: boolean;
  /** The data set it comes from: answers are only compared with answers of the same set. */
  readonly group: string;
  /** True when the answer already fails without the combiner (a contradicted or wholly unsupported claim). */
  readonly failsByRule: boolean;
}

export interface CombinerFitOptions {
  /** L2 penalty on the weights. */
  readonly l2: number;
  /** Pairs (hallucinated, correct) drawn from each group. */
  readonly pairsPerGroup: number;
  readonly iterations: number;
  readonly seed: number;
  /**
   * Share of each group's correct answers (those the rules do not fail already) whose score may reach the fail
   * threshold: 0 puts it above every correct answer seen in training.
   */
  readonly failQuantileSlack: number;
  /** The same for the warn threshold. */
  readonly warnQuantileSlack: number;
  /**
   * When set, the fail threshold is instead the lowest that keeps each group's false-alarm rate, rules
   * included, at or below this share of its correct answers (what `veracity calibrate --target-fpr` sets).
   */
  readonly targetFpr?: number;
}

export const defaultCombinerFitOptions: CombinerFitOptions = {
  l2: 0.01,
  pairsPerGroup: 20_000,
  iterations: 600,
  seed: 1,
  failQuantileSlack: 0,
  warnQuantileSlack: 0.1,
};

export const maxCombinerSamples = 1_000_000;

const vectorOf = (features: AnswerFeatures): number[] => answerFeatureNames.map((name) => features[name]);

const standardization = (rows: readonly number[][]) => {
  const size = answerFeatureNames.length;
  const mean = new Array<number>(size).fill(0);
  const scale = new Array<number>(size).fill(0);
  for (const row of rows) for (let i = 0; i < size; i++) mean[i]! += (row[i] ?? 0) / rows.length;
  for (const row of rows)
    for (let i = 0; i < size; i++) scale[i]! += ((row[i] ?? 0) - mean[i]!) ** 2 / rows.length;
  return { mean, scale: scale.map((variance) => (variance > 1e-12 ? Math.sqrt(variance) : 1)) };
};

/**
 * Non-negative weights that order hallucinated answers above correct ones within each group: the pairwise
 * logistic loss (RankNet) over sampled pairs, each group weighted equally, minimized by projected Adam.
 * Ranking within a group, rather than fitting one probability over all groups, leaves out what differs
 * between tasks (how much a correct summary or dialogue reply repeats its source), which a single global
 * fit would learn as if it were evidence.
 */
const fitRankWeights = (
  standardized: readonly number[][],
  samples: readonly CombinerSample[],
  options: CombinerFitOptions,
): number[] => {
  const next = mulberry32(options.seed);
  const pairs: { positive: number; negative: number; weight: number }[] = [];
  const groups = [...new Set(samples.map((sample) => sample.group))];
  const usable = groups.filter(
    (group) =>
      samples.some((s) => s.group === group && s.hallucinated) &&
      samples.some((s) => s.group === group && !s.hallucinated),
  );
  for (const group of usable) {
    const positives = samples.flatMap((s, i) => (s.group === group && s.hallucinated ? [i] : []));
    const negatives = samples.flatMap((s, i) => (s.group === group && !s.hallucinated ? [i] : []));
    for (let k = 0; k < options.pairsPerGroup; k++)
      pairs.push({
        positive: positives[Math.floor(next() * positives.length)]!,
        negative: negatives[Math.floor(next() * negatives.length)]!,
        weight: 1 / (options.pairsPerGroup * usable.length),
      });
  }
  const size = answerFeatureNames.length;
  const weights = new Array<number>(size).fill(0.1);
  const first = new Array<number>(size).fill(0);
  const second = new Array<number>(size).fill(0);
  const rate = 0.05;
  for (let step = 1; step <= options.iterations; step++) {
    const gradient = weights.map((w) => options.l2 * w);
    for (const pair of pairs) {
      const pos = standardized[pair.positive]!;
      const neg = standardized[pair.negative]!;
      let margin = 0;
      for (let i = 0; i < size; i++) margin += weights[i]! * (pos[i]! - neg[i]!);
      const pull = -pair.weight / (1 + Math.exp(margin));
      for (let i = 0; i < size; i++) gradient[i]! += pull * (pos[i]! - neg[i]!);
    }
    for (let i = 0; i < size; i++) {
      first[i] = 0.9 * first[i]! + 0.1 * gradient[i]!;
      second[i] = 0.999 * second[i]! + 0.001 * gradient[i]! ** 2;
      const corrected = first[i]! / (1 - 0.9 ** step);
      const spread = Math.sqrt(second[i]! / (1 - 0.999 ** step)) + 1e-8;
      weights[i] = Math.max(0, weights[i]! - (rate * corrected) / spread);
    }
  }
  return weights;
};

/**
 * The smallest threshold that, in every group, at most `allowedIn(correct, failedByRule)` of the correct
 * answers the rules did not fail reach: strictly above the highest score past the allowance.
 */
const thresholdFor = (
  probabilities: readonly number[],
  samples: readonly CombinerSample[],
  allowedIn: (correct: number, failedByRule: number) => number,
) => {
  let threshold = 0;
  for (const group of new Set(samples.map((sample) => sample.group))) {
    const inGroup = (i: number) => samples[i]!.group === group && !samples[i]!.hallucinated;
    const failedByRule = samples.filter((sample, i) => inGroup(i) && sample.failsByRule).length;
    const correct = probabilities
      .filter((_, i) => inGroup(i) && !samples[i]!.failsByRule)
      .sort((x, y) => x - y);
    if (correct.length === 0) continue;
    const allowed = Math.max(0, Math.floor(allowedIn(correct.length + failedByRule, failedByRule)));
    if (allowed >= correct.length) continue;
    threshold = Math.max(threshold, Math.min(1, correct[correct.length - 1 - allowed]! + 1e-9));
  }
  return threshold;
};

/**
 * Fits the answer combiner on labelled answers from one or more data sets: rank weights, then Platt scaling
 * of the rank score into a probability, then the fail and warn thresholds as the operating point.
 */
export const fitCombiner = (
  samples: readonly CombinerSample[],
  options: CombinerFitOptions = defaultCombinerFitOptions,
  trainedOn?: string,
): Either.Either<CombinerModel, InputError> => {
  if (samples.length > maxCombinerSamples)
    return Either.left(
      new InputError({
        message: `too many answers to fit on (at most ${maxCombinerSamples})`,
        code: "calibration-data",
      }),
    );
  const hasPair = [...new Set(samples.map((s) => s.group))].some(
    (group) =>
      samples.some((s) => s.group === group && s.hallucinated) &&
      samples.some((s) => s.group === group && !s.hallucinated),
  );
  if (!hasPair)
    return Either.left(
      new InputError({
        message: "fitting the combiner needs hallucinated and correct answers from the same data set",
        code: "calibration-data",
      }),
    );
  const rows = samples.map((sample) => vectorOf(sample.features));
  const { mean, scale } = standardization(rows);
  const standardized = rows.map((row) => row.map((value, i) => (value - mean[i]!) / scale[i]!));
  const weights = fitRankWeights(standardized, samples, options);
  const rankScores = standardized.map((row) => row.reduce((sum, value, i) => sum + value * weights[i]!, 0));
  // Platt's model is P(positive | f) = 1 / (1 + exp(a f + b)) with "supported" as the positive class: the
  // hallucination probability is its complement, sigmoid(a f + b).
  const platt = fitPlatt(rankScores.map((score, i) => ({ score, supported: !samples[i]!.hallucinated })));
  if (Either.isLeft(platt)) return Either.left(platt.left);
  const { a, b } = platt.right.model;
  const probabilities = rankScores.map((score) => 1 / (1 + Math.exp(-(a * score + b))));
  const target = options.targetFpr;
  const failThreshold =
    target === undefined
      ? thresholdFor(
          probabilities,
          samples,
          (correct, ruled) => options.failQuantileSlack * (correct - ruled),
        )
      : thresholdFor(probabilities, samples, (correct, ruled) => target * correct - ruled);
  const warnThreshold = Math.min(
    failThreshold,
    thresholdFor(probabilities, samples, (correct, ruled) => options.warnQuantileSlack * (correct - ruled)),
  );
  return Either.right({
    version: 1,
    features: [...answerFeatureNames],
    mean,
    scale,
    weights,
    slope: a,
    intercept: b,
    failThreshold,
    warnThreshold,
    ...(trainedOn === undefined ? {} : { trainedOn }),
  });
};
