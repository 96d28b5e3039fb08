import { Either, Schema } from "effect";
import { InputError } from "../model/errors.js";
import { LayerName } from "../model/layer-name.js";
import type { CalibrationModels } from "./calibrator.js";
import { CombinerModel, checkCombinerModel } from "./combiner/combiner.js";
import type { CalibrationRun } from "./fit-layers.js";
import { PlattModel } from "./platt.js";

const isLayerName = Schema.is(LayerName);

/**
 * The calibration file: `{ "layers": { "<layer>": { "a": ..., "b": ... } }, ...metadata }`. Only `layers` is
 * read back; the metadata (method, splits, quality before and after) is for people. Any subset of layers may
 * be present (a `Schema.Record` keyed by the `LayerName` literals would demand all eight), but each key must
 * be a layer Veracity knows.
 */
export const CalibrationFile = Schema.Struct({
  layers: Schema.Record({ key: Schema.String, value: PlattModel }).pipe(
    Schema.filter((layers) => Object.keys(layers).every(isLayerName) || "unknown layer name"),
  ),
  /** The answer combiner refitted on the user's labelled answers, with its operating point. */
  combiner: Schema.optional(CombinerModel),
});

/** The file's text for a fitted run, with how it was fitted and how well. */
export const calibrationFileJson = (
  run: CalibrationRun,
  metadata: { readonly source: string; readonly createdAt: string },
  combiner?: { readonly model: CombinerModel; readonly quality: unknown },
): string =>
  `${JSON.stringify(
    {
      layers: run.models,
      ...(combiner === undefined ? {} : { combiner: combiner.model, combinerQuality: combiner.quality }),
      method: "platt",
      source: metadata.source,
      createdAt: metadata.createdAt,
      tuneOn: run.splits.tuneOn,
      reportOn: run.splits.reportOn,
      quality: Object.fromEntries(
        run.layers.map((layer) => [
          layer.layer,
          {
            tuneSamples: layer.tuneCount,
            reportSamples: layer.before.count,
            iterations: layer.fit.iterations,
            converged: layer.fit.converged,
            before: layer.before,
            after: layer.after,
          },
        ]),
      ),
      skipped: run.skipped,
    },
    null,
    2,
  )}\n`;

/** Decodes a calibration file's text; a malformed file is an InputError, never an empty calibration. */
export const parseCalibrationFile = (text: string): Either.Either<CalibrationModels, InputError> => {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return Either.left(
      new InputError({ message: `not JSON: ${(error as Error).message}`, code: "calibration-file" }),
    );
  }
  return Schema.decodeUnknownEither(CalibrationFile)(raw).pipe(
    Either.map((file) => file.layers as CalibrationModels),
    Either.mapLeft(
      () =>
        new InputError({
          message:
            'not a calibration file: expected { "layers": { "<layer>": { "a": number, "b": number } } }',
          code: "calibration-file",
        }),
    ),
  );
};

/**
 * The refitted answer combiner of a calibration file, if it has one. A combiner of another version or with a
 * broken feature list is an InputError: a file that silently fell back to the shipped combiner would decide
 * by thresholds the user never chose.
 */
export const parseCalibrationCombiner = (
  text: string,
): Either.Either<CombinerModel | undefined, InputError> => {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return Either.left(
      new InputError({ message: `not JSON: ${(error as Error).message}`, code: "calibration-file" }),
    );
  }
  const combiner = (raw as { combiner?: unknown } | null)?.combiner;
  if (combiner === undefined) return Either.right(undefined);
  const decoded = Schema.decodeUnknownEither(CombinerModel)(combiner);
  if (Either.isLeft(decoded))
    return Either.left(
      new InputError({
        message:
          "the calibration file's combiner is not one this version reads (refit it with veracity calibrate)",
        code: "calibration-file",
      }),
    );
  const problem = checkCombinerModel(decoded.right);
  return problem === undefined
    ? Either.right(decoded.right)
    : Either.left(new InputError({ message: problem, code: "calibration-file" }));
};
