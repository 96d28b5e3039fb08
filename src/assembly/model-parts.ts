import { Effect, Either, Layer } from "effect";
import { EmptyFactualMemory, FactualMemory } from "../checks/model-backed/factual-memory.js";
import { makeModelLayers } from "../checks/model-backed/index.js";
import { makeModelRiskModel } from "../checks/model-backed/risk-model.js";
import { makeLLMServiceFromConfig } from "../llm/live.js";
import { LLMService, type LLMServiceShape } from "../llm/llm-service.js";
import { makeModelMitigator } from "../mitigation/model-mitigator.js";
import type { VerificationLayer } from "../model/layer.js";
import type { ModelLayerName } from "../model/layer-name.js";
import { UsageError } from "../model/usage-error.js";
import type { VerifierFlags } from "./flags.js";
import { layerModelsFromEnv } from "./layer-models.js";

/**
 * Model-backed layers and the risk model over one LLM service (one cache, one concurrency limit). Without a
 * model the five layers are still returned: they report "not ready" with what to set. A malformed model
 * string or a missing API key is a usage error.
 */
export const modelParts = async (flags: VerifierFlags, env: Readonly<Record<string, string | undefined>>) => {
  const program = Effect.gen(function* () {
    const llm = yield* makeLLMServiceFromConfig(env, flags.model === undefined ? {} : { model: flags.model });
    const factMemory =
      flags.factMemory === undefined ? EmptyFactualMemory : Layer.succeed(FactualMemory, flags.factMemory);
    const layersOver = (service: LLMServiceShape) =>
      makeModelLayers().pipe(Effect.provideService(LLMService, service), Effect.provide(factMemory));
    const layers: Record<ModelLayerName, VerificationLayer> = { ...(yield* layersOver(llm)) };
    // A layer that names its own model gets its own LLM service for it; the others share the main one.
    for (const [name, model] of Object.entries(layerModelsFromEnv(env)) as [ModelLayerName, string][]) {
      const own = yield* makeLLMServiceFromConfig(env, { model });
      layers[name] = (yield* layersOver(own))[name];
    }
    const riskModel =
      llm.textUnavailable === undefined
        ? yield* makeModelRiskModel.pipe(Effect.provideService(LLMService, llm))
        : undefined;
    // With a model, failures can be regenerated; without one the mitigator degrades and says so.
    const mitigator = makeModelMitigator(llm.textUnavailable === undefined ? llm : undefined);
    return {
      layers: Object.values(layers) as VerificationLayer[],
      riskModel,
      mitigator,
      modelUsage: () => Effect.runPromise(llm.usage),
    };
  });
  const result = await Effect.runPromise(Effect.either(program));
  if (Either.isLeft(result)) throw new UsageError(result.left.message);
  return result.right;
};
