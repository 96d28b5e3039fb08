import { Context, Effect, Layer } from "effect";
import type { VerificationLayer } from "../../model/layer.js";
import type { ModelLayerName } from "../../model/layer-name.js";
import { type FactDecompositionOptions, makeFactDecompositionLayer } from "./fact-decomposition/index.js";
import { type MultiSourceOptions, makeMultiSourceLayer } from "./multi-source/index.js";
import { makeNliLayer, type NliOptions } from "./nli/index.js";
import { makeSelfConsistencyLayer, type SelfConsistencyOptions } from "./self-consistency/index.js";
import { makeSemanticEntropyLayer, type SemanticEntropyOptions } from "./semantic-entropy/index.js";

export interface ModelLayerOptions {
  readonly semanticEntropy?: SemanticEntropyOptions;
  readonly factDecomposition?: FactDecompositionOptions;
  readonly multiSource?: MultiSourceOptions;
  readonly selfConsistency?: SelfConsistencyOptions;
  readonly nli?: NliOptions;
  /** Per-layer time limits in ms, like the settings' `layerTimeouts`; a layer's own `timeoutMs` wins. */
  readonly layerTimeouts?: Partial<Record<ModelLayerName, number>>;
}

/**
 * Each model-backed layer's time limit in milliseconds when none is configured: 10 s for semantic entropy
 * and NLI, 15 s for fact decomposition and self-consistency, 20 s for multi-source.
 */
export const defaultLayerTimeouts: Readonly<Record<ModelLayerName, number>> = {
  "semantic-entropy": 10_000,
  "fact-decomposition": 15_000,
  "multi-source": 20_000,
  "self-consistency": 15_000,
  nli: 10_000,
};

export type ModelLayerSet = Readonly<Record<ModelLayerName, VerificationLayer>>;

const withTimeout = <O extends { readonly timeoutMs?: number }>(
  name: ModelLayerName,
  own: O | undefined,
  timeouts: Partial<Record<ModelLayerName, number>> | undefined,
): O => ({ ...own, timeoutMs: own?.timeoutMs ?? timeouts?.[name] ?? defaultLayerTimeouts[name] }) as O;

/** Builds the five model-backed layers from an `LLMService` (and a `FactualMemory` for fact decomposition). */
export const makeModelLayers = (options: ModelLayerOptions = {}) =>
  Effect.all({
    "semantic-entropy": makeSemanticEntropyLayer(
      withTimeout("semantic-entropy", options.semanticEntropy, options.layerTimeouts),
    ),
    "fact-decomposition": makeFactDecompositionLayer(
      withTimeout("fact-decomposition", options.factDecomposition, options.layerTimeouts),
    ),
    "multi-source": makeMultiSourceLayer(
      withTimeout("multi-source", options.multiSource, options.layerTimeouts),
    ),
    "self-consistency": makeSelfConsistencyLayer(
      withTimeout("self-consistency", options.selfConsistency, options.layerTimeouts),
    ),
    nli: makeNliLayer(withTimeout("nli", options.nli, options.layerTimeouts)),
  }) satisfies Effect.Effect<ModelLayerSet, never, unknown>;

/** The five model-backed layers by name. */
export class ModelLayers extends Context.Tag("veracity/ModelLayers")<ModelLayers, ModelLayerSet>() {}

/** `ModelLayers` from `LLMService` and `FactualMemory`. */
export const ModelLayersLive = (options: ModelLayerOptions = {}) =>
  Layer.effect(ModelLayers, makeModelLayers(options));

export type { FactualMemoryShape, MemoryHit, MemorySearchOptions, StoredFact } from "./factual-memory.js";
export {
  EmptyFactualMemory,
  FactualMemory,
  FactualMemoryError,
  InMemoryFactualMemory,
  makeInMemoryFactualMemory,
} from "./factual-memory.js";
export {
  classifyRiskWithModel,
  ModelRiskModelLive,
  makeModelRiskModel,
  RiskAssessment,
} from "./risk-model.js";
export { layerInputOf } from "./shared/layer-input.js";
export { isBudgetSkip } from "./shared/run-model-layer.js";
export type {
  FactDecompositionOptions,
  MultiSourceOptions,
  NliOptions,
  SelfConsistencyOptions,
  SemanticEntropyOptions,
};
export {
  makeFactDecompositionLayer,
  makeMultiSourceLayer,
  makeNliLayer,
  makeSelfConsistencyLayer,
  makeSemanticEntropyLayer,
};
