import type { LayerName } from "../model/layer-name.js";
import type { PlattModel } from "./platt.js";

/**
 * Starting Platt scaling parameters (Platt, 1999) for the model-backed layers: set by hand, not fitted on
 * data, each mapping a raw score to a probability that rises with it (a < 0). A calibration fitted on labeled
 * data (`veracity calibrate`) replaces them. Evidence layers have none: their raw score is used as it is
 * until such a calibration is loaded.
 */
export const defaultPlattModels: Readonly<Partial<Record<LayerName, PlattModel>>> = {
  "semantic-entropy": { a: -2.5, b: 0.5 },
  "fact-decomposition": { a: -3.0, b: 0.3 },
  "multi-source": { a: -2.0, b: 0.4 },
  "self-consistency": { a: -2.8, b: 0.35 },
  nli: { a: -2.2, b: 0.45 },
};
