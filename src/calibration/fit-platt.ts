import { Either } from "effect";
import { InputError } from "../model/errors.js";
import { type LabeledScore, maxCalibrationSamples } from "./labeled-score.js";
import type { PlattModel } from "./platt.js";

export interface PlattFit {
  readonly model: PlattModel;
  readonly iterations: number;
  /** False when Newton stopped on the iteration limit or a failed line search before the gradient vanished. */
  readonly converged: boolean;
  readonly positives: number;
  readonly negatives: number;
}

export interface PlattFitOptions {
  readonly maxIterations?: number;
  /** Stop when both gradient components are below this. */
  readonly tolerance?: number;
}

const minimumStep = 1e-10;
/** Added to the Hessian's diagonal so it stays positive definite (Lin, Lin and Weng 2007). */
const hessianRidge = 1e-12;

/** log(1 + exp(-|x|)) written so it neither overflows nor loses precision. */
const softplusOfNegative = (x: number): number => Math.log1p(Math.exp(-Math.abs(x)));

/** Cross-entropy of the smoothed targets under P = 1 / (1 + exp(a f + b)). */
const objective = (scores: Float64Array, targets: Float64Array, a: number, b: number): number => {
  let sum = 0;
  for (let i = 0; i < scores.length; i++) {
    const linear = a * scores[i]! + b;
    const target = targets[i]!;
    sum +=
      linear >= 0
        ? target * linear + softplusOfNegative(linear)
        : (target - 1) * linear + softplusOfNegative(linear);
  }
  return sum;
};

const invalid = (message: string) => new InputError({ message, code: "calibration-data" });

const validate = (samples: readonly LabeledScore[]): InputError | undefined => {
  if (samples.length === 0) return invalid("no labeled scores to fit a calibration on");
  if (samples.length > maxCalibrationSamples)
    return invalid(`too many labeled scores: ${samples.length} (at most ${maxCalibrationSamples})`);
  const bad = samples.findIndex((sample) => !Number.isFinite(sample.score));
  return bad === -1 ? undefined : invalid(`labeled score ${bad} is not a finite number`);
};

/**
 * Fits Platt scaling, P(supported | f) = 1 / (1 + exp(a f + b)), by Platt's method as improved by Lin, Lin and
 * Weng (2007): Platt's smoothed targets (N+ + 1)/(N+ + 2) and 1/(N- + 2) instead of 1 and 0, which keeps the
 * optimum finite even when the classes are perfectly separable or one class is absent; Newton's method with a
 * backtracking (Armijo) line search on the stable form of the cross-entropy.
 */
export const fitPlatt = (
  samples: readonly LabeledScore[],
  options: PlattFitOptions = {},
): Either.Either<PlattFit, InputError> => {
  const problem = validate(samples);
  if (problem !== undefined) return Either.left(problem);
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-5;
  const positives = samples.filter((sample) => sample.supported).length;
  const negatives = samples.length - positives;
  const highTarget = (positives + 1) / (positives + 2);
  const lowTarget = 1 / (negatives + 2);
  const scores = Float64Array.from(samples, (sample) => sample.score);
  const targets = Float64Array.from(samples, (sample) => (sample.supported ? highTarget : lowTarget));

  let a = 0;
  let b = Math.log((negatives + 1) / (positives + 1));
  let value = objective(scores, targets, a, b);
  let iterations = 0;
  let converged = false;
  for (; iterations < maxIterations; iterations++) {
    let h11 = hessianRidge;
    let h22 = hessianRidge;
    let h21 = 0;
    let g1 = 0;
    let g2 = 0;
    for (let i = 0; i < scores.length; i++) {
      const score = scores[i]!;
      const linear = a * score + b;
      // p = P(supported) = 1 / (1 + exp(linear)), q = 1 - p, both computed without overflow.
      const p = linear >= 0 ? Math.exp(-linear) / (1 + Math.exp(-linear)) : 1 / (1 + Math.exp(linear));
      const q = 1 - p;
      const curvature = p * q;
      h11 += score * score * curvature;
      h22 += curvature;
      h21 += score * curvature;
      const residual = targets[i]! - p;
      g1 += score * residual;
      g2 += residual;
    }
    if (Math.abs(g1) < tolerance && Math.abs(g2) < tolerance) {
      converged = true;
      break;
    }
    const determinant = h11 * h22 - h21 * h21;
    const stepA = -(h22 * g1 - h21 * g2) / determinant;
    const stepB = -(-h21 * g1 + h11 * g2) / determinant;
    const descent = g1 * stepA + g2 * stepB;
    let step = 1;
    let accepted = false;
    while (step >= minimumStep) {
      const nextA = a + step * stepA;
      const nextB = b + step * stepB;
      const nextValue = objective(scores, targets, nextA, nextB);
      if (nextValue < value + 1e-4 * step * descent) {
        a = nextA;
        b = nextB;
        value = nextValue;
        accepted = true;
        break;
      }
      step /= 2;
    }
    if (!accepted) {
      // No step decreases the objective: we are at the optimum up to rounding.
      converged = Math.abs(g1) < 1e-3 && Math.abs(g2) < 1e-3;
      break;
    }
  }
  return Either.right({ model: { a, b }, iterations, converged, positives, negatives });
};
