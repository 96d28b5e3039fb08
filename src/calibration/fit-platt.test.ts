import { Either } from "effect";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mulberry32 as seededRandom } from "../model/mulberry32.js";
import { fitPlatt } from "./fit-platt.js";
import type { LabeledScore } from "./labeled-score.js";
import { applyPlatt, type PlattModel } from "./platt.js";

/** Scores uniform on [0, 1], labels drawn from the true Platt curve. */
const drawSamples = (model: PlattModel, count: number, seed: number): LabeledScore[] => {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const score = random();
    return { score, supported: random() < applyPlatt(model, score) };
  });
};

const fitted = (samples: readonly LabeledScore[]) => {
  const result = fitPlatt(samples);
  if (Either.isLeft(result)) throw new Error(result.left.message);
  return result.right;
};

describe("fitPlatt", () => {
  it("recovers known Platt parameters from data drawn with them", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -6, max: -1.5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        (a, midpoint, seed) => {
          // b places the curve's midpoint (P = 0.5) inside the score range, so both labels occur.
          const truth = { a, b: -a * midpoint };
          const fit = fitted(drawSamples(truth, 8000, seed));
          expect(fit.converged).toBe(true);
          expect(Math.abs(fit.model.a - truth.a)).toBeLessThan(0.2 * Math.abs(truth.a) + 0.3);
          expect(Math.abs(fit.model.b - truth.b)).toBeLessThan(0.2 * Math.abs(truth.a) + 0.3);
          for (const score of [0, 0.25, 0.5, 0.75, 1])
            expect(Math.abs(applyPlatt(fit.model, score) - applyPlatt(truth, score))).toBeLessThan(0.04);
        },
      ),
      { numRuns: 25, seed: 20261122 },
    );
  });

  it("stays finite on perfectly separable data, thanks to Platt's smoothed targets", () => {
    const samples = [
      ...Array.from({ length: 50 }, (_, index) => ({ score: 0.6 + index * 0.008, supported: true })),
      ...Array.from({ length: 50 }, (_, index) => ({ score: index * 0.008, supported: false })),
    ];
    const fit = fitted(samples);
    expect(Number.isFinite(fit.model.a) && Number.isFinite(fit.model.b)).toBe(true);
    expect(fit.model.a).toBeLessThan(0);
    expect(applyPlatt(fit.model, 0.9)).toBeGreaterThan(0.9);
    expect(applyPlatt(fit.model, 0.1)).toBeLessThan(0.1);
    // The targets are (N+ + 1)/(N+ + 2) and 1/(N- + 2), so confidences never reach 0 or 1 exactly.
    expect(applyPlatt(fit.model, 1)).toBeLessThan(1);
  });

  it("fits a single-class sample to its smoothed base rate", () => {
    const fit = fitted(Array.from({ length: 30 }, (_, index) => ({ score: index / 30, supported: true })));
    expect(applyPlatt(fit.model, 0.5)).toBeCloseTo(31 / 32, 2);
  });

  it.each([
    ["no samples", []],
    ["a NaN score", [{ score: Number.NaN, supported: true }]],
    ["an infinite score", [{ score: Number.POSITIVE_INFINITY, supported: false }]],
  ])("refuses %s with an InputError", (_, samples) => {
    const result = fitPlatt(samples);
    expect(Either.isLeft(result) && result.left._tag).toBe("InputError");
  });
});
