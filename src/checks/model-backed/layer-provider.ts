import { Effect, Either, Layer } from "effect";
import type { LLMCoreOptions } from "../../llm/core.js";
import { LLMServiceFromConfig } from "../../llm/live.js";
import type { Environment } from "../../llm/model-config.js";
import type { ConfigError } from "../../model/errors.js";
import type { VerificationLayer } from "../../model/layer.js";
import { EmptyFactualMemory, type FactualMemory } from "./factual-memory.js";
import { type ModelLayerOptions, makeModelLayers } from "./index.js";

export interface ModelLayerProviderOptions {
  readonly env?: Environment;
  readonly core?: LLMCoreOptions;
  readonly layers?: ModelLayerOptions;
  /** The fact memory for fact decomposition (default: empty, every fact goes to the model). */
  readonly memory?: Layer.Layer<FactualMemory>;
}

/**
 * The five model-backed layers for a model string (`--model`) or `VERACITY_MODEL`, as plain layers for the
 * layer registry. With no model configured they are still returned and report "not ready" with what to
 * set; a malformed model string or a missing API key rejects with the `ConfigError`.
 */
export const modelLayersFor = (
  model: string | undefined,
  options: ModelLayerProviderOptions = {},
): Promise<readonly VerificationLayer[]> =>
  Effect.runPromise(
    Effect.either(
      makeModelLayers(options.layers).pipe(
        Effect.map((layers): readonly VerificationLayer[] => Object.values(layers)),
        Effect.provide(
          Layer.merge(
            LLMServiceFromConfig(
              options.env ?? process.env,
              model === undefined ? {} : { model },
              options.core,
            ),
            options.memory ?? EmptyFactualMemory,
          ),
        ),
      ) satisfies Effect.Effect<readonly VerificationLayer[], ConfigError>,
    ),
  ).then((result) => {
    if (Either.isLeft(result)) throw result.left;
    return result.right;
  });

/** A `LayerProvider` for `registerLayerProvider` in `src/cli/build-verifier.ts`. */
export const modelLayerProvider = (options: ModelLayerProviderOptions = {}) => ({
  name: "model-layers",
  layers: (flags: { readonly model?: string }) => modelLayersFor(flags.model, options),
});
