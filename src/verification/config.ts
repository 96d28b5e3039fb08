import { Context, Layer } from "effect";
import type { CombinerModel } from "../calibration/combiner/combiner.js";
import { shippedCombiner } from "../calibration/combiner/shipped-combiner.js";
import type { LayerName, ModelLayerName } from "../model/layer-name.js";
import { type RiskLevel, type RiskProfile, RiskProfiles } from "../model/risk.js";
import { defaultSourceCacheLimits, type TextCacheLimits } from "../text/text-cache.js";
import { defaultEvidenceFocus, type EvidenceFocus } from "./focus-evidence.js";

/**
 * How the verification service behaves: risk profiles, time and size limits, strict mode and the combiner,
 * overridable per deployment.
 */
export interface VerificationSettings {
  /**
   * The risk profile of each risk level: the model-backed layers it runs, the score they must reach, and its
   * latency and cost budget.
   */
  readonly profiles: Readonly<Record<RiskLevel, RiskProfile>>;
  /** Per-layer time limit in milliseconds. */
  readonly layerTimeouts: Readonly<Partial<Record<LayerName, number>>>;
  /** How many layers of one verification may run at once (at least 1); synchronous layers run one at a time. */
  readonly maxConcurrentLayers: number;
  /** Layers switched off here are never run, at any risk level. */
  readonly enabledLayers: Readonly<Partial<Record<LayerName, boolean>>>;
  /** Any skipped layer of the profile fails the verification. */
  readonly strict: boolean;
  /** Risk level used when the heuristics cannot decide and no model is configured to ask. */
  readonly fallbackRiskLevel: RiskLevel;
  /** The largest text accepted, in characters; longer input is refused with an InputError. */
  readonly maxTextLength: number;
  /** The largest total of sources plus context accepted, in characters. */
  readonly maxEvidenceLength: number;
  /**
   * At most this many claims are handed to the layers; the rest are reported as not checked, and the
   * verification cannot pass.
   */
  readonly maxClaims: number;
  /**
   * Evidence larger than `above` characters is narrowed, before any layer reads it, to the passages that
   * share the claims' rarer words and figures (at least `keep` characters of them); the result's
   * `evidenceFocus` says how much was kept. Set `above` to `maxEvidenceLength` to read all evidence always.
   */
  readonly evidenceFocus: EvidenceFocus;
  /**
   * What each offline layer keeps of single sources it has read (the grounding layer's sentences and stems, the
   * numbers layer's figures), so a document that comes back among other documents is not read again: how many
   * sources and how many characters in all, per layer and per verifier (each worker of a pool has its own). A
   * kept character costs about 5-18 bytes besides its text (tables the most). `entries: 0` keeps none.
   * `verifier.cacheStats()` tells whether the documents that come back fit.
   */
  readonly sourceCache: TextCacheLimits;
  /** Combines every signal into the answer's hallucination score, with the fail and warn thresholds. */
  readonly combiner: CombinerModel;
}

export const defaultLayerTimeouts: Readonly<Record<ModelLayerName, number>> = {
  "semantic-entropy": 10_000,
  "fact-decomposition": 15_000,
  "multi-source": 20_000,
  "self-consistency": 15_000,
  nli: 10_000,
};

/**
 * The settings used where none are given: the standard risk profiles, a time limit per layer, three layers at
 * once, every layer enabled, strict mode off, `medium` risk when the heuristics cannot decide, generous size
 * limits, and the combiner shipped with the package.
 */
export const defaultSettings: VerificationSettings = {
  profiles: RiskProfiles,
  layerTimeouts: { ...defaultLayerTimeouts, grounding: 10_000, numbers: 10_000, citations: 30_000 },
  maxConcurrentLayers: 3,
  enabledLayers: {},
  strict: false,
  fallbackRiskLevel: "medium",
  maxTextLength: 1_000_000,
  maxEvidenceLength: 20_000_000,
  maxClaims: 10_000,
  evidenceFocus: defaultEvidenceFocus,
  sourceCache: defaultSourceCacheLimits,
  combiner: shippedCombiner,
};

export class VerificationConfig extends Context.Tag("veracity/VerificationConfig")<
  VerificationConfig,
  VerificationSettings
>() {}

export const makeSettings = (overrides: Partial<VerificationSettings> = {}): VerificationSettings => ({
  ...defaultSettings,
  ...overrides,
  layerTimeouts: { ...defaultSettings.layerTimeouts, ...overrides.layerTimeouts },
});

export const VerificationConfigLive = (overrides: Partial<VerificationSettings> = {}) =>
  Layer.succeed(VerificationConfig, makeSettings(overrides));
