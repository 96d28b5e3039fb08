/** One raw layer score with the truth: was the checked text supported? */
export interface LabeledScore {
  /** Raw support score in [0, 1] (1 = supported). */
  readonly score: number;
  readonly supported: boolean;
}

/** The most samples one fit accepts: a bound on memory and time, far above any eval run. */
export const maxCalibrationSamples = 2_000_000;
