import { Layer } from "effect";
import {
  type CalibrationModels,
  Calibrator,
  CalibratorLive,
  type CalibratorShape,
} from "../calibration/calibrator.js";
import { Mitigator, type MitigatorShape, makeOfflineMitigator } from "../mitigation/mitigator.js";
import type { VerificationLayer } from "../model/layer.js";
import { VerificationConfigLive, type VerificationSettings } from "./config.js";
import { EventBusLive } from "./events.js";
import { LayerRegistryLive } from "./registry.js";
import { RiskAssessorLive, RiskModel, type RiskModelShape } from "./risk-assessor.js";
import { VerificationServiceLive } from "./service.js";

export interface VerificationAppOptions {
  readonly layers: readonly VerificationLayer[];
  readonly settings?: Partial<VerificationSettings>;
  readonly calibration?: CalibrationModels;
  /** A calibrator to use as it is (one the caller refits while verifications run); `calibration` is then unused. */
  readonly calibrator?: CalibratorShape;
  readonly riskModel?: RiskModelShape;
  /** Replaces the offline mitigator, e.g. `makeModelMitigator(llm)` from `src/mitigation/model-mitigator.ts`. */
  readonly mitigator?: MitigatorShape;
}

/**
 * The verification service with everything it needs: configuration, the layer registry, the heuristic risk
 * assessor, calibration, offline mitigation and an in-process event bus. Provide a `RiskModel` or another
 * `Mitigator` on top to swap those parts.
 */
export const makeVerificationAppLayer = (options: VerificationAppOptions) => {
  const config = VerificationConfigLive(options.settings);
  const dependencies = Layer.mergeAll(
    config,
    LayerRegistryLive(options.layers),
    options.riskModel
      ? RiskAssessorLive.pipe(Layer.provide(Layer.merge(config, Layer.succeed(RiskModel, options.riskModel))))
      : RiskAssessorLive.pipe(Layer.provide(config)),
    options.calibrator ? Layer.succeed(Calibrator, options.calibrator) : CalibratorLive(options.calibration),
    Layer.succeed(Mitigator, options.mitigator ?? makeOfflineMitigator()),
    EventBusLive,
  );
  return Layer.merge(VerificationServiceLive.pipe(Layer.provide(dependencies)), dependencies);
};
