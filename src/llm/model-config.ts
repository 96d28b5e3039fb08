import { Either } from "effect";
import { ConfigError } from "../model/errors.js";

export type ModelProviderName = "openai" | "anthropic" | "openai-compatible";

/** A model named by a configuration string. */
export interface ModelSpec {
  readonly provider: ModelProviderName;
  readonly modelId: string;
  /** Base URL of an OpenAI-compatible server (Ollama, vLLM, llama.cpp server, LM Studio). */
  readonly baseUrl?: string;
}

export const modelStringFormats =
  "openai:MODEL, anthropic:MODEL or openai-compatible:MODEL@BASE_URL (e.g. openai-compatible:llama3.1:8b@http://127.0.0.1:11434/v1)";

const maxModelStringLength = 500;

/**
 * Parses `openai:MODEL`, `anthropic:MODEL` or `openai-compatible:MODEL@BASE_URL`. The model id may itself
 * contain ":" (Ollama tags); the base URL is what follows the last "@" that starts an http(s) URL.
 */
export const parseModelString = (value: string, key = "model"): Either.Either<ModelSpec, ConfigError> => {
  const text = value.trim();
  const fail = (why: string) =>
    Either.left(
      new ConfigError({
        message: `Invalid ${key} "${text.slice(0, 80)}": ${why}. Use ${modelStringFormats}.`,
        key,
      }),
    );
  if (text.length === 0 || text.length > maxModelStringLength) return fail("empty or too long");
  const colon = text.indexOf(":");
  if (colon === -1) return fail("no provider prefix");
  const provider = text.slice(0, colon);
  const rest = text.slice(colon + 1);
  if (provider === "openai" || provider === "anthropic") {
    return rest === "" ? fail("no model id") : Either.right({ provider, modelId: rest });
  }
  if (provider === "openai-compatible") {
    const match = /^(.+)@(https?:\/\/\S+)$/.exec(rest);
    if (match?.[1] === undefined || match[2] === undefined) return fail("expected MODEL@BASE_URL");
    try {
      new URL(match[2]);
    } catch {
      return fail("the base URL is not a URL");
    }
    return Either.right({ provider, modelId: match[1], baseUrl: match[2] });
  }
  return fail(`unknown provider "${provider.slice(0, 40)}"`);
};

export const formatModelSpec = (spec: ModelSpec): string =>
  spec.baseUrl === undefined
    ? `${spec.provider}:${spec.modelId}`
    : `${spec.provider}:${spec.modelId}@${spec.baseUrl}`;

export type Environment = Readonly<Record<string, string | undefined>>;

/** The models to use: explicit values (e.g. `--model`) win over `VERACITY_MODEL` / `VERACITY_EMBEDDING_MODEL`. */
export interface ModelSelection {
  readonly model?: string;
  readonly embeddingModel?: string;
}

export interface ResolvedModels {
  readonly model: ModelSpec | undefined;
  readonly embeddingModel: ModelSpec | undefined;
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === "" ? undefined : value;

export const resolveModelSpecs = (
  env: Environment,
  selection: ModelSelection = {},
): Either.Either<ResolvedModels, ConfigError> => {
  const parseOptional = (value: string | undefined, key: string) =>
    value === undefined ? Either.right(undefined) : parseModelString(value, key);
  return Either.all({
    model: parseOptional(nonEmpty(selection.model) ?? nonEmpty(env.VERACITY_MODEL), "VERACITY_MODEL"),
    embeddingModel: parseOptional(
      nonEmpty(selection.embeddingModel) ?? nonEmpty(env.VERACITY_EMBEDDING_MODEL),
      "VERACITY_EMBEDDING_MODEL",
    ),
  });
};
