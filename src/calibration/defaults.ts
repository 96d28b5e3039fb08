import type { LayerName } from "../model/layer-name.js";
import type { PlattModel } from "./platt.js";

/**
 * The specification's default parameters for the model-backed layers. Evidence layers have none: their raw
 * score is used as it is until a calibration fitted on labeled data is loaded (`veracity calibrate`).
 */
export const defaultPlattModels: Readonly<Partial<Record<LayerName, PlattModel>>> = {
  "semantic-entropy": { a: -2.5, b: 0.5 },
  "fact-decomposition": { a: -3.0, b: 0.3 },
  "multi-source": { a: -2.0, b: 0.4 },
  "self-consistency": { a: -2.8, b: 0.35 },
  nli: { a: -2.2, b: 0.45 },
};
