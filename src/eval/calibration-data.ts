import type { RecordPrediction } from "./prediction.js";

/** One (score, label) pair of one layer on one record: input for fitting a calibration map. */
export interface CalibrationPair {
  readonly layer: string;
  /** The layer's raw support score in [0, 1] (1 = supported). */
  readonly score: number;
  readonly label: "supported" | "hallucinated";
  readonly id: string;
  readonly dataset: string;
  /** The record's split, when the harness ran with splits. */
  readonly split?: string;
}

/** Every raw layer score of every verified record (records whose verification failed have none). */
export const calibrationPairs = (predictions: readonly RecordPrediction[]): readonly CalibrationPair[] =>
  predictions.flatMap((prediction) =>
    prediction.layerScores.map((layer) => ({
      layer: layer.layer,
      score: layer.rawScore ?? layer.score,
      label: prediction.label,
      id: prediction.id,
      dataset: prediction.dataset,
      ...(prediction.split === undefined ? {} : { split: prediction.split }),
    })),
  );

/** The pairs as JSONL, one object per line. */
export const calibrationPairsToJsonl = (pairs: readonly CalibrationPair[]): string =>
  pairs.map((pair) => JSON.stringify(pair)).join("\n") + (pairs.length > 0 ? "\n" : "");
