import { Schema } from "effect";
import { type AnswerFeatures, answerFeatureNames } from "./answer-features.js";

/**
 * A logistic model over the answer features: `probability = sigmoid(slope * sum(w_i * (x_i - mean_i) /
 * scale_i) + intercept)`. The weights rank answers (they are fitted to order hallucinated answers above
 * correct ones within each training set, and kept non-negative so that more evidence against an answer never
 * lowers its score); slope and intercept turn the rank score into a probability. The thresholds are the
 * operating point: `fail` at or above `failThreshold`, `warn` at or above `warnThreshold`.
 */
export const CombinerModel = Schema.Struct({
  /** Bumped whenever the feature list or the model's form changes; a file of another version is refused. */
  version: Schema.Literal(1),
  features: Schema.Array(Schema.String),
  mean: Schema.Array(Schema.Number),
  scale: Schema.Array(Schema.Number.pipe(Schema.positive())),
  weights: Schema.Array(Schema.Number),
  slope: Schema.Number,
  intercept: Schema.Number,
  failThreshold: Schema.Number.pipe(Schema.between(0, 1)),
  warnThreshold: Schema.Number.pipe(Schema.between(0, 1)),
  /** Where the model came from: data sets, record counts, the command that fitted it. */
  trainedOn: Schema.optional(Schema.String),
});
export type CombinerModel = typeof CombinerModel.Type;

/** A model's feature list must be exactly the features this version computes, in order. */
export const checkCombinerModel = (model: CombinerModel): string | undefined => {
  const expected = answerFeatureNames.join(",");
  if (model.features.join(",") !== expected)
    return `the combiner model's features (${model.features.join(", ")}) are not this version's (${answerFeatureNames.join(", ")})`;
  const size = answerFeatureNames.length;
  if (model.mean.length !== size || model.scale.length !== size || model.weights.length !== size)
    return `the combiner model needs ${size} means, scales and weights`;
  if (model.warnThreshold > model.failThreshold)
    return "the combiner's warn threshold is above its fail threshold";
  return undefined;
};

/** The model's rank score of an answer: larger means more likely hallucinated. */
export const rankScore = (model: CombinerModel, features: AnswerFeatures): number => {
  let score = 0;
  answerFeatureNames.forEach((name, i) => {
    score += ((model.weights[i] ?? 0) * (features[name] - (model.mean[i] ?? 0))) / (model.scale[i] ?? 1);
  });
  return score;
};

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** The likelihood in [0, 1] that the answer holds a hallucination. */
export const hallucinationProbability = (model: CombinerModel, features: AnswerFeatures): number =>
  sigmoid(model.slope * rankScore(model, features) + model.intercept);
