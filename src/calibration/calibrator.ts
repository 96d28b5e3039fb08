import { Context, Effect, Layer } from "effect";
import { CalibrationError } from "../model/errors.js";
import type { LayerName } from "../model/layer-name.js";
import { defaultPlattModels } from "./defaults.js";
import { applyPlatt, type PlattModel } from "./platt.js";

export type CalibrationModels = Readonly<Partial<Record<LayerName, PlattModel>>>;

export interface CalibratorShape {
  /** A raw layer score in [0, 1] turned into a calibrated confidence in [0, 1]. */
  readonly calibrate: (rawScore: number, layer: LayerName) => Effect.Effect<number, CalibrationError>;
  /** The Platt models in use now, per layer (a refit replaces them; see `updateModel`). */
  readonly models: CalibrationModels;
  /**
   * Replaces one layer's Platt model from now on: verifications already running finish with whichever model
   * they read, later ones use the new one. A model whose parameters are not finite is refused.
   */
  readonly updateModel: (layer: LayerName, model: PlattModel) => Effect.Effect<void, CalibrationError>;
}

/** The refusal of the first model in `models` whose parameters are not finite, or undefined when all are. */
export const invalidPlattModel = (models: CalibrationModels): CalibrationError | undefined => {
  for (const [layer, model] of Object.entries(models))
    if (model !== undefined && !(Number.isFinite(model.a) && Number.isFinite(model.b)))
      return new CalibrationError({
        message: `the Platt model of ${layer} is not finite`,
        rawScore: Number.NaN,
      });
  return undefined;
};

export class Calibrator extends Context.Tag("veracity/Calibrator")<Calibrator, CalibratorShape>() {}

export const makeCalibrator = (overrides: CalibrationModels = {}): CalibratorShape => {
  let models: CalibrationModels = { ...defaultPlattModels, ...overrides };
  return {
    get models() {
      return models;
    },
    calibrate: (rawScore, layer) => {
      if (!Number.isFinite(rawScore) || rawScore < 0 || rawScore > 1) {
        return Effect.fail(new CalibrationError({ message: `score of ${layer} is not in [0, 1]`, rawScore }));
      }
      const model = models[layer];
      return Effect.succeed(model ? applyPlatt(model, rawScore) : rawScore);
    },
    updateModel: (layer, model) => {
      const invalid = invalidPlattModel({ [layer]: model });
      return invalid
        ? Effect.fail(invalid)
        : Effect.sync(() => {
            // A new object each time: a reader holding the previous `models` keeps a consistent snapshot.
            models = { ...models, [layer]: { a: model.a, b: model.b } };
          });
    },
  };
};

export const CalibratorLive = (overrides: CalibrationModels = {}) =>
  Layer.succeed(Calibrator, makeCalibrator(overrides));
