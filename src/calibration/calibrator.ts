import { Context, Effect, Layer } from "effect";
import { CalibrationError } from "../model/errors.js";
import type { LayerName } from "../model/layer-name.js";
import { defaultPlattModels } from "./defaults.js";
import { applyPlatt, type PlattModel } from "./platt.js";

export type CalibrationModels = Readonly<Partial<Record<LayerName, PlattModel>>>;

export interface CalibratorShape {
  /** A raw layer score in [0, 1] turned into a calibrated confidence in [0, 1]. */
  readonly calibrate: (rawScore: number, layer: LayerName) => Effect.Effect<number, CalibrationError>;
  readonly models: CalibrationModels;
}

export class Calibrator extends Context.Tag("veracity/Calibrator")<Calibrator, CalibratorShape>() {}

export const makeCalibrator = (overrides: CalibrationModels = {}): CalibratorShape => {
  const models: CalibrationModels = { ...defaultPlattModels, ...overrides };
  return {
    models,
    calibrate: (rawScore, layer) => {
      if (!Number.isFinite(rawScore) || rawScore < 0 || rawScore > 1) {
        return Effect.fail(new CalibrationError({ message: `score of ${layer} is not in [0, 1]`, rawScore }));
      }
      const model = models[layer];
      return Effect.succeed(model ? applyPlatt(model, rawScore) : rawScore);
    },
  };
};

export const CalibratorLive = (overrides: CalibrationModels = {}) =>
  Layer.succeed(Calibrator, makeCalibrator(overrides));
