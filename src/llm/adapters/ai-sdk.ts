import type {
  EmbeddingModelV3,
  LanguageModelV3,
  LanguageModelV3Content,
  LanguageModelV3Prompt,
} from "@ai-sdk/provider";
import type { ChatMessage } from "../messages.js";
import { type Generation, type ModelPort, ProviderFailure } from "../model-port.js";
import { parseRetryAfter } from "../retry.js";

export interface AiSdkModels {
  readonly languageModel: LanguageModelV3;
  readonly embeddingModel?: EmbeddingModelV3;
  /** Names used in reports and for prices; default "<provider>:<modelId>" of each model. */
  readonly name?: string;
  readonly embeddingName?: string;
}

const toPrompt = (messages: readonly ChatMessage[]): LanguageModelV3Prompt =>
  messages.map((message) =>
    message.role === "system"
      ? { role: "system", content: message.content }
      : { role: message.role, content: [{ type: "text", text: message.content }] },
  );

/** The answer's text; a tool call's input when the model answered with a tool call only. */
const answerText = (content: readonly LanguageModelV3Content[]): string => {
  const text = content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
  if (text.trim() !== "") return text;
  const toolCall = content.find((part) => part.type === "tool-call");
  return toolCall?.type === "tool-call" ? toolCall.input : text;
};

const isAbort = (error: unknown): boolean => error instanceof Error && error.name === "AbortError";

/**
 * Turns AI SDK errors into classified `ProviderFailure`s; the core decides about retries. The provider package
 * is imported here, on the first failure, so that importing Veracity does not load it.
 */
const toProviderFailure = async (error: unknown): Promise<unknown> => {
  if (isAbort(error)) return error;
  const { APICallError } = await import("@ai-sdk/provider");
  if (APICallError.isInstance(error)) {
    const retryAfterMs = parseRetryAfter(error.responseHeaders);
    return new ProviderFailure(error.message, {
      ...(error.statusCode === undefined ? {} : { status: error.statusCode }),
      retryable: error.isRetryable,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      network: error.statusCode === undefined,
    });
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return new ProviderFailure(message, { retryable: false });
};

/**
 * A model port over any AI SDK provider model (`LanguageModelV3`, `EmbeddingModelV3`): OpenAI,
 * Anthropic, any OpenAI-compatible server, or a custom provider. The AI SDK's own retries are not used
 * (the core retries); structured requests pass their JSON Schema as the provider's response format.
 */
export const aiSdkModelPort = (models: AiSdkModels): ModelPort => {
  const { languageModel, embeddingModel } = models;
  const generate: ModelPort["generate"] = async (request, signal): Promise<Generation> => {
    try {
      const result = await languageModel.doGenerate({
        prompt: toPrompt(request.messages),
        abortSignal: signal,
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
        ...(request.jsonSchema === undefined
          ? {}
          : {
              responseFormat: {
                type: "json" as const,
                schema: request.jsonSchema,
                ...(request.schemaName === undefined ? {} : { name: request.schemaName }),
              },
            }),
      });
      return {
        text: answerText(result.content),
        ...(result.usage.inputTokens.total === undefined
          ? {}
          : { inputTokens: result.usage.inputTokens.total }),
        ...(result.usage.outputTokens.total === undefined
          ? {}
          : { outputTokens: result.usage.outputTokens.total }),
      };
    } catch (error) {
      throw await toProviderFailure(error);
    }
  };
  return {
    model: models.name ?? `${languageModel.provider}:${languageModel.modelId}`,
    generate,
    ...(embeddingModel === undefined ? {} : aiSdkEmbeddings(embeddingModel, models.embeddingName)),
  };
};

/** The embedding half of a model port, over any AI SDK embedding model. */
export const aiSdkEmbeddings = (
  embeddingModel: EmbeddingModelV3,
  name?: string,
): { readonly embeddingModel: string; readonly embed: NonNullable<ModelPort["embed"]> } => ({
  embeddingModel: name ?? `${embeddingModel.provider}:${embeddingModel.modelId}`,
  embed: async (values, signal) => {
    try {
      const result = await embeddingModel.doEmbed({ values: [...values], abortSignal: signal });
      return {
        vectors: result.embeddings,
        ...(result.usage === undefined ? {} : { tokens: result.usage.tokens }),
      };
    } catch (error) {
      throw await toProviderFailure(error);
    }
  },
});
