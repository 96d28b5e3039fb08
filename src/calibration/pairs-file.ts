import { Either, Schema } from "effect";
import { InputError } from "../model/errors.js";
import type { LayerScorePair } from "./fit-layers.js";
import { maxCalibrationSamples } from "./labeled-score.js";

const PairLine = Schema.Struct({
  layer: Schema.String,
  score: Schema.Number.pipe(Schema.finite(), Schema.between(0, 1)),
  label: Schema.Literal("supported", "hallucinated"),
  id: Schema.String,
  split: Schema.optional(Schema.String),
});

/**
 * Reads the eval harness's calibration pairs (JSONL, one `{layer, score, label, id, split?}` per line). A
 * malformed line is an InputError naming the line: a calibration fitted on silently dropped data is wrong.
 */
export const parseCalibrationPairs = (text: string): Either.Either<LayerScorePair[], InputError> => {
  const pairs: LayerScorePair[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!.trim();
    if (line === "") continue;
    if (pairs.length >= maxCalibrationSamples)
      return Either.left(
        new InputError({ message: `more than ${maxCalibrationSamples} pairs`, code: "calibration-data" }),
      );
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      return Either.left(
        new InputError({ message: `line ${index + 1}: not JSON`, code: "calibration-data" }),
      );
    }
    const decoded = Schema.decodeUnknownEither(PairLine)(raw);
    if (Either.isLeft(decoded))
      return Either.left(
        new InputError({
          message: `line ${index + 1}: expected {layer, score in [0, 1], label supported|hallucinated, id}`,
          code: "calibration-data",
        }),
      );
    const { split, ...rest } = decoded.right;
    pairs.push(split === undefined ? rest : { ...rest, split });
  }
  return Either.right(pairs);
};
