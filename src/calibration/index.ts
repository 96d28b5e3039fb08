export { type CalibrationModels, Calibrator, type CalibratorShape, makeCalibrator } from "./calibrator.js";
export { defaultPlattModels } from "./defaults.js";
export { CalibrationFile, calibrationFileJson, parseCalibrationFile } from "./file.js";
export {
  type CalibrationRun,
  type CalibrationSplits,
  defaultCalibrationSplits,
  fitLayerCalibrations,
  type LayerCalibrationReport,
  type LayerScorePair,
  minimumTuningSamples,
} from "./fit-layers.js";
export { fitPlatt, type PlattFit, type PlattFitOptions } from "./fit-platt.js";
export type { LabeledScore } from "./labeled-score.js";
export { parseCalibrationPairs } from "./pairs-file.js";
export { applyPlatt, PlattModel } from "./platt.js";
export { type CalibrationQuality, calibrationQuality } from "./quality.js";
export { type CalibrationStore, makeCalibrationStore } from "./store.js";
