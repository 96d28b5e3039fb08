import { Effect, ManagedRuntime, ParseResult, Schema } from "effect";
import { type CalibrationModels, invalidPlattModel, makeCalibrator } from "../calibration/calibrator.js";
import type { MitigatorShape } from "../mitigation/mitigator.js";
import type { CacheStats } from "../model/cache-stats.js";
import type { ClaimFinding } from "../model/claim.js";
import { InputError } from "../model/errors.js";
import { FactMemoryUser } from "../model/fact-memory-user.js";
import type { VerificationLayer } from "../model/layer.js";
import type { LayerName } from "../model/layer-name.js";
import type { LayerResult } from "../model/layer-result.js";
import type { Mitigation } from "../model/mitigation.js";
import { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import type { RiskLevel } from "../model/risk.js";
import { makeVerificationAppLayer } from "../verification/app-layer.js";
import type { VerificationSettings } from "../verification/config.js";
import { EventBus, type EventHandler } from "../verification/events.js";
import type { RiskModelShape } from "../verification/risk-assessor.js";
import { VerificationService } from "../verification/service.js";
import type { AnswerOptions, PreparedAnswer } from "./answer-types.js";
import { defaultEvidenceLayers } from "./default-layers.js";
import { runOrThrow } from "./run.js";

/**
 * How `createVerifier` builds a verifier: its layers, settings, calibration, risk model and mitigator. Every
 * field is optional; an empty configuration gives the offline grounding and numbers layers with the default
 * settings.
 */
export interface VerifierConfig {
  /** Layers to use instead of the defaults (the offline grounding and numbers layers). */
  readonly layers?: readonly VerificationLayer[];
  /** Layers added to the defaults: numbers, citations, model-backed layers... */
  readonly extraLayers?: readonly VerificationLayer[];
  /** Settings that replace the defaults (`defaultSettings`); per-layer time limits are merged with the defaults. */
  readonly settings?: Partial<VerificationSettings>;
  /** Platt models per layer, e.g. loaded from `veracity calibrate` output. */
  readonly calibration?: CalibrationModels;
  /** Classifies the risk of texts the heuristics leave open (see `makeModelRiskModel`). */
  readonly riskModel?: RiskModelShape;
  /** Replaces the offline mitigator, e.g. `makeModelMitigator(llm)` to regenerate failed texts with a model. */
  readonly mitigator?: MitigatorShape;
}

/** The Promise API, for code that does not use Effect. */
export interface Verifier {
  /**
   * Verifies a text with the layers its risk level calls for, plus every evidence layer that can run. Rejects
   * with an InputError for a malformed or oversized request; a layer that fails or times out is reported in
   * the result's `skippedLayers` instead, and the verification cannot pass.
   */
  readonly verify: (request: VerificationRequest) => Promise<VerificationResult>;
  /**
   * `verify`, with the result made ready for an HTTP answer (its JSON, summary and audit hash) where it ran: a
   * worker pool has it so its threads do that work. Call it through `verifyPrepared(verifier, ...)`, which
   * falls back to `verify` and `prepareAnswer` in the caller's thread.
   */
  readonly verifyPrepared?: (request: VerificationRequest, options: AnswerOptions) => Promise<PreparedAnswer>;
  /**
   * Runs one layer on its own against the given context and sources, outside any risk profile (tests,
   * targeted re-verification). Rejects with a VerificationError when the layer is not configured or cannot
   * run on this input.
   */
  readonly runLayer: (
    layer: LayerName,
    text: string,
    context?: string,
    sources?: readonly string[],
  ) => Promise<LayerResult>;
  /**
   * The risk level a text would be verified at: the heuristics' reading, else the risk model's when one is
   * configured, else the settings' `fallbackRiskLevel`.
   */
  readonly assessRisk: (text: string, context?: string) => Promise<RiskLevel>;
  /** Subscribe to `verification.completed`, `verification.failed`, `verification.mitigation-applied`. */
  readonly subscribe: (handler: EventHandler) => Promise<() => void>;
  /**
   * What the verifier's caches of evidence did since it was built and what they hold now, one entry per cache
   * (a worker pool adds up its workers' caches of each name). Absent on a verifier that reports none.
   */
  readonly cacheStats?: () => Promise<readonly CacheStats[]>;
  /** Releases the verifier's resources (its runtime and, for a worker pool, its threads); call it once, when done. */
  readonly close: () => Promise<void>;
}

/** What the in-process verifier adds to `Verifier`: mitigation and calibration on their own. */
export interface VerifierTools {
  /**
   * What to do about a failed text: the mitigation the configured mitigator chooses (annotate, regenerate with
   * the model, block...) for the failed layers and their claims, e.g. from a `VerificationResult`.
   */
  readonly mitigate: (
    text: string,
    failedLayers: readonly LayerResult[],
    claims?: readonly ClaimFinding[],
  ) => Promise<Mitigation>;
  /** A layer's raw score through its Platt model (the identity for a layer without one). */
  readonly calibrateConfidence: (rawScore: number, layer: LayerName) => Promise<number>;
  /**
   * Replaces the Platt models of the given layers (the others keep theirs) for every verification that starts
   * from now on, e.g. after a refit from reviewed outcomes. Rejects with a CalibrationError for a model whose
   * parameters are not finite, and then changes nothing.
   */
  readonly updateCalibration: (models: CalibrationModels) => Promise<void>;
  /**
   * `verify` on behalf of an authenticated user: a fact memory shared by many users (a server's memory store)
   * reads that user's facts only. The user must come from authentication, never from the request.
   */
  readonly verifyFor: (userId: string, request: VerificationRequest) => Promise<VerificationResult>;
  /** `Verifier.cacheStats`, which an in-process verifier always has. */
  readonly cacheStats: () => Promise<readonly CacheStats[]>;
}

const decodeRequest = (request: unknown) =>
  Schema.decodeUnknown(VerificationRequest)(request).pipe(
    Effect.mapError(
      (error) =>
        new InputError({
          code: "INVALID_REQUEST",
          message: `invalid verification request: ${ParseResult.TreeFormatter.formatErrorSync(error)}`,
        }),
    ),
  );

/**
 * Builds an in-process verifier from a configuration: the default evidence layers (or `layers`) plus
 * `extraLayers`, run by the verification service with the given settings, calibration, risk model and
 * mitigator. Requests are validated before they run; failures reject with the library's tagged errors.
 */
export const createVerifier = (config: VerifierConfig = {}): Verifier & VerifierTools => {
  const layers = [
    ...(config.layers ?? defaultEvidenceLayers(config.settings?.sourceCache)),
    ...(config.extraLayers ?? []),
  ];
  // One calibrator the verifier keeps a handle on, so `updateCalibration` reaches the running service.
  const calibrator = makeCalibrator(config.calibration);
  const runtime = ManagedRuntime.make(
    makeVerificationAppLayer({
      layers,
      ...(config.settings ? { settings: config.settings } : {}),
      calibrator,
      ...(config.riskModel ? { riskModel: config.riskModel } : {}),
      ...(config.mitigator ? { mitigator: config.mitigator } : {}),
    }),
  );
  const verification = (request: VerificationRequest) =>
    Effect.flatMap(decodeRequest(request), (decoded) =>
      Effect.flatMap(VerificationService, (service) => service.verify(decoded)),
    );
  return {
    verify: (request) => runOrThrow(runtime, verification(request)),
    verifyFor: (userId, request) =>
      runOrThrow(runtime, Effect.locally(verification(request), FactMemoryUser, userId)),
    runLayer: (layer, text, context, sources) =>
      runOrThrow(
        runtime,
        Effect.flatMap(VerificationService, (service) => service.runLayer(layer, text, context, sources)),
      ),
    assessRisk: (text, context) =>
      runOrThrow(
        runtime,
        Effect.flatMap(VerificationService, (service) => service.assessRisk(text, context)),
      ),
    mitigate: (text, failedLayers, claims) =>
      runOrThrow(
        runtime,
        Effect.flatMap(VerificationService, (service) => service.mitigate(text, failedLayers, claims)),
      ),
    calibrateConfidence: (rawScore, layer) =>
      runOrThrow(
        runtime,
        Effect.flatMap(VerificationService, (service) => service.calibrateConfidence(rawScore, layer)),
      ),
    updateCalibration: (models) =>
      runOrThrow(
        runtime,
        Effect.gen(function* () {
          // All or nothing: every model is checked before any is applied.
          const invalid = invalidPlattModel(models);
          if (invalid) return yield* Effect.fail(invalid);
          for (const [layer, model] of Object.entries(models))
            if (model !== undefined) yield* calibrator.updateModel(layer as LayerName, model);
        }),
      ),
    subscribe: (handler) =>
      runOrThrow(
        runtime,
        Effect.map(EventBus, (bus) => bus.subscribe(handler)),
      ),
    cacheStats: () =>
      runOrThrow(
        runtime,
        Effect.flatMap(VerificationService, (service) => service.cacheStats()),
      ),
    close: () => runtime.dispose(),
  };
};
