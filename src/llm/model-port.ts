import type { ChatMessage } from "./messages.js";

/** What the core asks an adapter for: one generation, already shaped. */
export interface GenerateRequest {
  readonly messages: readonly ChatMessage[];
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  /** JSON Schema of the expected answer, for providers with a structured-output mode. */
  readonly jsonSchema?: object;
  readonly schemaName?: string;
  readonly purpose?: string;
}

/** Raw output of one generation. Token counts are undefined when the provider does not report them. */
export interface Generation {
  readonly text: string;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

export interface RawEmbeddings {
  readonly vectors: readonly (readonly number[])[];
  readonly tokens?: number;
}

/**
 * The narrow port an adapter implements: raw model output only. Decoding, repair, retries, timeouts,
 * caching, budgets and cost live once, in the core (`makeLLMService`). Adapters throw `ProviderFailure`
 * (or anything else, treated as a non-retryable failure) and honour the abort signal.
 */
export interface ModelPort {
  /** Model id as shown in reports and used for prices, e.g. "openai:gpt-4o-mini". */
  readonly model: string;
  readonly generate: (request: GenerateRequest, signal: AbortSignal) => Promise<Generation>;
  readonly embeddingModel?: string;
  readonly embed?: (values: readonly string[], signal: AbortSignal) => Promise<RawEmbeddings>;
}

/** A failure reported by an adapter, already classified. */
export class ProviderFailure extends Error {
  override readonly name = "ProviderFailure";
  constructor(
    message: string,
    readonly details: {
      readonly status?: number;
      readonly retryable: boolean;
      readonly retryAfterMs?: number;
      readonly network?: boolean;
    },
  ) {
    super(message);
  }
}
