import { Either } from "effect";
import { describe, expect, it } from "vitest";
import { type AnswerFeatures, answerFeatureNames } from "./combiner/answer-features.js";
import { checkCombinerModel, hallucinationProbability } from "./combiner/combiner.js";
import { type CombinerSample, defaultCombinerFitOptions, fitCombiner } from "./fit-combiner.js";

const features = (values: Partial<AnswerFeatures>): AnswerFeatures =>
  Object.fromEntries(answerFeatureNames.map((name) => [name, values[name] ?? 0])) as AnswerFeatures;

/**
 * Two groups whose correct answers sit at different levels of the same signal (as a dialogue reply and an
 * abstractive summary repeat their source to different degrees): within each group, hallucinated answers miss
 * more words; a second feature is noise.
 */
const samples = (): CombinerSample[] => {
  const out: CombinerSample[] = [];
  let state = 7;
  const noise = () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
  for (const [group, level] of [
    ["dialogue", 0.1],
    ["summaries", 0.5],
  ] as const) {
    for (let i = 0; i < 200; i++) {
      const hallucinated = i % 2 === 0;
      out.push({
        group,
        hallucinated,
        failsByRule: false,
        features: features({
          missingFromBestPassageMean: level + (hallucinated ? 0.3 : 0) + noise() * 0.2,
          negationMismatch: noise() < 0.5 ? 1 : 0,
        }),
      });
    }
  }
  return out;
};

const options = { ...defaultCombinerFitOptions, pairsPerGroup: 2_000, iterations: 200 };

describe("fitCombiner", () => {
  it("learns a non-negative weight for the feature that ranks answers within each group", () => {
    const model = Either.getOrThrow(fitCombiner(samples(), options));
    expect(checkCombinerModel(model)).toBeUndefined();
    const weight = (name: string) => model.weights[model.features.indexOf(name)]!;
    expect(weight("missingFromBestPassageMean")).toBeGreaterThan(5 * Math.abs(weight("negationMismatch")));
    expect(model.weights.every((w) => w >= 0)).toBe(true);
    const low = hallucinationProbability(model, features({ missingFromBestPassageMean: 0.1 }));
    const high = hallucinationProbability(model, features({ missingFromBestPassageMean: 0.9 }));
    expect(high).toBeGreaterThan(low);
  });

  it("puts the fail threshold above every correct answer the rules did not fail, in every group", () => {
    const data = samples();
    const model = Either.getOrThrow(fitCombiner(data, options));
    for (const sample of data.filter((s) => !s.hallucinated))
      expect(hallucinationProbability(model, sample.features)).toBeLessThan(model.failThreshold);
    expect(model.warnThreshold).toBeLessThanOrEqual(model.failThreshold);
  });

  it("gives the same model for the same data and seed", () => {
    expect(fitCombiner(samples(), options)).toEqual(fitCombiner(samples(), options));
  });

  it("refuses data without both classes in one group", () => {
    const onlyCorrect = samples().filter((sample) => !sample.hallucinated);
    const fit = fitCombiner(onlyCorrect, options);
    expect(Either.isLeft(fit) && fit.left.message).toMatch(/hallucinated and correct answers/);
  });
});
