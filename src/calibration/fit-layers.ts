import { Either, Schema } from "effect";
import { InputError } from "../model/errors.js";
import { fnv1a } from "../model/fnv1a.js";
import { isEvidenceLayer, LayerName } from "../model/layer-name.js";
import type { CalibrationModels } from "./calibrator.js";
import { fitPlatt, type PlattFit } from "./fit-platt.js";
import type { LabeledScore } from "./labeled-score.js";
import { applyPlatt } from "./platt.js";
import { type CalibrationQuality, calibrationQuality } from "./quality.js";

/** One labeled raw layer score, as the eval harness writes it (`calibration-data.jsonl`). */
export interface LayerScorePair {
  readonly layer: string;
  readonly score: number;
  readonly label: "supported" | "hallucinated";
  readonly id: string;
  readonly split?: string;
}

/**
 * Fit on one split, measure on another. With `declared`, a pair's own split decides and pairs without one go
 * by a hash of their record id (as in eval); without it every pair goes by the hash, so a data set with a
 * single declared split (all "dev") can still be cut in two.
 */
export interface CalibrationSplits {
  readonly tuneOn: string;
  readonly reportOn: string;
  readonly declared: boolean;
}

export const defaultCalibrationSplits: CalibrationSplits = {
  tuneOn: "tune",
  reportOn: "report",
  declared: false,
};

/** A layer needs at least this many tuning samples, with both labels present, to be fitted. */
export const minimumTuningSamples = 20;

export interface LayerCalibrationReport {
  readonly layer: LayerName;
  readonly fit: PlattFit;
  readonly tuneCount: number;
  /** Quality on the report split of the raw scores and of the fitted map. */
  readonly before: CalibrationQuality;
  readonly after: CalibrationQuality;
}

export interface CalibrationRun {
  readonly models: CalibrationModels;
  readonly layers: readonly LayerCalibrationReport[];
  /** Layers that were not fitted, with the reason. */
  readonly skipped: readonly { readonly layer: string; readonly reason: string }[];
  readonly splits: CalibrationSplits;
}

const isLayerName = Schema.is(LayerName);

const splitOf = (pair: LayerScorePair, splits: CalibrationSplits): string =>
  (splits.declared ? pair.split : undefined) ?? (fnv1a(pair.id) % 2 === 0 ? splits.tuneOn : splits.reportOn);

const toLabeled = (pair: LayerScorePair): LabeledScore => ({
  score: pair.score,
  supported: pair.label === "supported",
});

/**
 * Fits one Platt map per layer on the `tuneOn` split and reports ECE, Brier score and log-loss of the raw and
 * the calibrated scores on the `reportOn` split, which the fit never saw.
 */
export const fitLayerCalibrations = (
  pairs: readonly LayerScorePair[],
  splits: CalibrationSplits = defaultCalibrationSplits,
): Either.Either<CalibrationRun, InputError> => {
  if (splits.tuneOn === splits.reportOn)
    return Either.left(
      new InputError({ message: "the tuning and the report split must differ", code: "calibration-split" }),
    );
  const byLayer = new Map<string, { tune: LabeledScore[]; report: LabeledScore[] }>();
  for (const pair of pairs) {
    const split = splitOf(pair, splits);
    if (split !== splits.tuneOn && split !== splits.reportOn) continue;
    const bucket = byLayer.get(pair.layer) ?? { tune: [], report: [] };
    byLayer.set(pair.layer, bucket);
    (split === splits.tuneOn ? bucket.tune : bucket.report).push(toLabeled(pair));
  }
  const models: Partial<Record<LayerName, { a: number; b: number }>> = {};
  const layers: LayerCalibrationReport[] = [];
  const skipped: { layer: string; reason: string }[] = [];
  for (const [layer, { tune, report }] of [...byLayer].sort(([x], [y]) => x.localeCompare(y))) {
    if (!isLayerName(layer)) {
      skipped.push({ layer, reason: "not a layer Veracity knows" });
      continue;
    }
    // An evidence layer's score is the weakest claim's support; the answer verdict reads its claims and
    // signals, not that score, so remapping it could only mislead (a perfect numbers score mapped to 0.26).
    if (isEvidenceLayer(layer)) {
      skipped.push({
        layer,
        reason: "an evidence layer: its claims and signals feed the answer combiner instead",
      });
      continue;
    }
    const positives = tune.filter((sample) => sample.supported).length;
    if (tune.length < minimumTuningSamples || positives === 0 || positives === tune.length) {
      skipped.push({
        layer,
        reason: `needs at least ${minimumTuningSamples} tuning samples with both labels (has ${tune.length}, ${positives} supported)`,
      });
      continue;
    }
    const fitted = fitPlatt(tune);
    if (Either.isLeft(fitted)) return Either.left(fitted.left);
    const fit = fitted.right;
    models[layer] = fit.model;
    layers.push({
      layer,
      fit,
      tuneCount: tune.length,
      before: calibrationQuality(report),
      after: calibrationQuality(report, (score) => applyPlatt(fit.model, score)),
    });
  }
  return Either.right({ models, layers, skipped, splits });
};
