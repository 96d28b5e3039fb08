import { createRequire } from "node:module";
import type * as AnthropicProvider from "@ai-sdk/anthropic";
import type * as OpenAIProvider from "@ai-sdk/openai";
import type * as OpenAICompatibleProvider from "@ai-sdk/openai-compatible";
import type { EmbeddingModelV3, LanguageModelV3 } from "@ai-sdk/provider";
import { Either } from "effect";
import { ConfigError } from "../model/errors.js";
import type { Environment, ModelSpec } from "./model-config.js";

const requireModule = createRequire(import.meta.url);

/**
 * A provider package, loaded when a model of that provider is configured: they are optional peer
 * dependencies, so an application installs only the providers it uses, and nothing loads them otherwise.
 */
const providerPackage = <T>(name: string, spec: ModelSpec): Either.Either<T, ConfigError> => {
  try {
    return Either.right(requireModule(name) as T);
  } catch (error) {
    if ((error as { code?: string }).code !== "MODULE_NOT_FOUND") throw error;
    return Either.left(
      new ConfigError({
        message: `The model ${spec.provider}:${spec.modelId} needs the package ${name}: npm install ${name}`,
        key: "VERACITY_MODEL",
      }),
    );
  }
};

const openai = (spec: ModelSpec) => providerPackage<typeof OpenAIProvider>("@ai-sdk/openai", spec);
const anthropic = (spec: ModelSpec) => providerPackage<typeof AnthropicProvider>("@ai-sdk/anthropic", spec);
const openaiCompatible = (spec: ModelSpec) =>
  providerPackage<typeof OpenAICompatibleProvider>("@ai-sdk/openai-compatible", spec);

const requireKey = (env: Environment, key: string, spec: ModelSpec): Either.Either<string, ConfigError> => {
  const value = env[key];
  return value === undefined || value.trim() === ""
    ? Either.left(
        new ConfigError({
          message: `The model ${spec.provider}:${spec.modelId} needs ${key} in the environment.`,
          key,
        }),
      )
    : Either.right(value);
};

const optional = (key: string, value: string | undefined) =>
  value === undefined || value === "" ? {} : { [key]: value };

/**
 * The AI SDK language model of a spec. OpenAI uses the chat-completions API; keys come from
 * `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`, base URLs optionally from `OPENAI_BASE_URL` /
 * `ANTHROPIC_BASE_URL`; an OpenAI-compatible server takes `VERACITY_OPENAI_COMPATIBLE_API_KEY` if it needs one.
 */
export const languageModelOf = (
  spec: ModelSpec,
  env: Environment,
): Either.Either<LanguageModelV3, ConfigError> => {
  switch (spec.provider) {
    case "openai":
      return Either.flatMap(requireKey(env, "OPENAI_API_KEY", spec), (apiKey) =>
        Either.map(openai(spec), ({ createOpenAI }) =>
          createOpenAI({ apiKey, ...optional("baseURL", env.OPENAI_BASE_URL) }).chat(spec.modelId),
        ),
      );
    case "anthropic":
      return Either.flatMap(requireKey(env, "ANTHROPIC_API_KEY", spec), (apiKey) =>
        Either.map(anthropic(spec), ({ createAnthropic }) =>
          createAnthropic({ apiKey, ...optional("baseURL", env.ANTHROPIC_BASE_URL) }).messages(spec.modelId),
        ),
      );
    case "openai-compatible":
      return Either.map(openaiCompatible(spec), ({ createOpenAICompatible }) =>
        createOpenAICompatible({
          name: "openai-compatible",
          baseURL: spec.baseUrl ?? "",
          ...optional("apiKey", env.VERACITY_OPENAI_COMPATIBLE_API_KEY),
        }).chatModel(spec.modelId),
      );
  }
};

export const embeddingModelOf = (
  spec: ModelSpec,
  env: Environment,
): Either.Either<EmbeddingModelV3, ConfigError> => {
  switch (spec.provider) {
    case "openai":
      return Either.flatMap(requireKey(env, "OPENAI_API_KEY", spec), (apiKey) =>
        Either.map(openai(spec), ({ createOpenAI }) =>
          createOpenAI({ apiKey, ...optional("baseURL", env.OPENAI_BASE_URL) }).embedding(spec.modelId),
        ),
      );
    case "anthropic":
      return Either.left(
        new ConfigError({
          message:
            "Anthropic has no embedding models: set VERACITY_EMBEDDING_MODEL to an openai or openai-compatible model.",
          key: "VERACITY_EMBEDDING_MODEL",
        }),
      );
    case "openai-compatible":
      return Either.map(openaiCompatible(spec), ({ createOpenAICompatible }) =>
        createOpenAICompatible({
          name: "openai-compatible",
          baseURL: spec.baseUrl ?? "",
          ...optional("apiKey", env.VERACITY_OPENAI_COMPATIBLE_API_KEY),
        }).embeddingModel(spec.modelId),
      );
  }
};
