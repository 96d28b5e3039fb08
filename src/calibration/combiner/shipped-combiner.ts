import { Schema } from "effect";
import { CombinerModel, checkCombinerModel } from "./combiner.js";
import shipped from "./combiner-model.json" with { type: "json" };

/**
 * The combiner shipped with this version, fitted on the public labelled sets by `npm run train:combiner`
 * (docs/BENCHMARKS.md gives the data, the command and the leave-one-dataset-out figures).
 */
export const shippedCombiner: CombinerModel = (() => {
  const model = Schema.decodeUnknownSync(CombinerModel)(shipped);
  const problem = checkCombinerModel(model);
  if (problem !== undefined) throw new Error(`the shipped combiner model is broken: ${problem}`);
  return model;
})();
