import { dirname, join } from "node:path";
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

/** One verified answer for refitting the combiner: `veracity calibrate` reads these beside the pairs. */
export interface CombinerDataLine {
  readonly id: string;
  readonly dataset: string;
  readonly label: "supported" | "hallucinated";
  readonly split?: string;
  readonly failsByRule: boolean;
  readonly features: Readonly<Record<string, number>>;
}

/** Every answer some layer judged, as JSONL: the features the combiner reads and the record's label. */
export const combinerDataToJsonl = (predictions: readonly RecordPrediction[]): string =>
  predictions
    .flatMap((prediction) =>
      prediction.answer === undefined
        ? []
        : [
            JSON.stringify({
              id: prediction.id,
              dataset: prediction.dataset,
              label: prediction.label,
              ...(prediction.split === undefined ? {} : { split: prediction.split }),
              failsByRule: prediction.answer.failsByRule,
              features: prediction.answer.features,
            } satisfies CombinerDataLine),
          ],
    )
    .map((line) => `${line}\n`)
    .join("");

/** Where the combiner data of a calibration-data file lives: `combiner-data.jsonl` in the same folder. */
export const combinerDataPath = (calibrationDataPath: string): string =>
  join(dirname(calibrationDataPath), "combiner-data.jsonl");
