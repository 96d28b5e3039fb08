import { Effect, Either, Layer } from "effect";
import type { ConfigError } from "../model/errors.js";
import { aiSdkEmbeddings, aiSdkModelPort } from "./adapters/ai-sdk.js";
import { type LLMCoreOptions, makeLLMService } from "./core.js";
import { ModelCallError } from "./errors.js";
import { LLMService, type LLMServiceShape } from "./llm-service.js";
import {
  type Environment,
  formatModelSpec,
  type ModelSelection,
  modelStringFormats,
  resolveModelSpecs,
} from "./model-config.js";
import type { ModelPort } from "./model-port.js";
import { embeddingModelOf, languageModelOf } from "./providers.js";

export const noModelReason = `no model is configured: set VERACITY_MODEL or pass --model (${modelStringFormats})`;

const notConfigured = (message: string) =>
  Effect.fail(new ModelCallError({ message, reason: "not-configured", retryable: false, model: "none" }));

/** A port for when only an embedding model is configured: text generation always fails as not configured. */
const noTextPort = (embeddings: Partial<ModelPort>): ModelPort => ({
  model: "none",
  generate: () => Promise.reject(new Error(noModelReason)),
  ...embeddings,
});

/** The same service, with text completion refused as "not configured" (and the reason for layers' readiness). */
const withoutText = (service: LLMServiceShape): LLMServiceShape => ({
  ...service,
  model: undefined,
  textUnavailable: noModelReason,
  complete: () => notConfigured(noModelReason),
  completeStructured: () => notConfigured(noModelReason),
});

/**
 * The LLM service for the configured models: `selection` (e.g. `--model`) over `VERACITY_MODEL` and
 * `VERACITY_EMBEDDING_MODEL`, keys from `env`. With no model configured the service still builds, reports
 * `textUnavailable`, and every call fails with a `not-configured` error naming what to set; a malformed
 * model string or a missing key is a `ConfigError`.
 */
export const makeLLMServiceFromConfig = (
  env: Environment,
  selection: ModelSelection = {},
  options: LLMCoreOptions = {},
): Effect.Effect<LLMServiceShape, ConfigError> =>
  Effect.gen(function* () {
    const specs = yield* resolveModelSpecs(env, selection);
    const languageModel = specs.model === undefined ? undefined : yield* languageModelOf(specs.model, env);
    const embeddingModel =
      specs.embeddingModel === undefined ? undefined : yield* embeddingModelOf(specs.embeddingModel, env);
    const embeddings: Partial<ModelPort> =
      embeddingModel === undefined || specs.embeddingModel === undefined
        ? {}
        : aiSdkEmbeddings(embeddingModel, formatModelSpec(specs.embeddingModel));
    if (languageModel === undefined || specs.model === undefined) {
      return withoutText(yield* makeLLMService(noTextPort(embeddings), options));
    }
    const port = { ...aiSdkModelPort({ languageModel, name: formatModelSpec(specs.model) }), ...embeddings };
    return yield* makeLLMService(port, options);
  });

/** `LLMService` from the environment (see `makeLLMServiceFromConfig`). */
export const LLMServiceFromConfig = (
  env: Environment,
  selection: ModelSelection = {},
  options: LLMCoreOptions = {},
): Layer.Layer<LLMService, ConfigError> =>
  Layer.effect(LLMService, makeLLMServiceFromConfig(env, selection, options));

/** `LLMService` over any model port (an AI SDK model through `aiSdkModelPort`, a scripted model...). */
export const llmServiceLayer = (port: ModelPort, options: LLMCoreOptions = {}): Layer.Layer<LLMService> =>
  Layer.effect(LLMService, makeLLMService(port, options));

/** Parses a model string without building anything (for CLI flag validation). */
export const validateModelString = (value: string): Either.Either<string, ConfigError> =>
  Either.map(resolveModelSpecs({}, { model: value }), (specs) =>
    specs.model === undefined ? value : formatModelSpec(specs.model),
  );
