import { Context, type Effect } from "effect";
import type { LLMError } from "./errors.js";
import type {
  Completion,
  CompletionRequest,
  EmbeddingResult,
  StructuredCompletion,
  StructuredRequest,
} from "./messages.js";

/** Calls made through one service, for reports and benchmarks. */
export interface UsageReport {
  /** Provider calls that were sent (retries count once per attempt). */
  readonly calls: number;
  readonly cachedCalls: number;
  readonly failedCalls: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  /** Sent calls per `purpose` (at most 64 purposes; the rest are counted under "other"). */
  readonly byPurpose: Readonly<Record<string, number>>;
}

export interface LLMServiceShape {
  /** The text model, e.g. "openai:gpt-4o-mini"; undefined when none is configured. */
  readonly model: string | undefined;
  readonly embeddingModel: string | undefined;
  /** Why text completion cannot run (no model configured), or undefined when it can. */
  readonly textUnavailable: string | undefined;
  /** Why embeddings cannot run, or undefined when they can. */
  readonly embeddingsUnavailable: string | undefined;
  readonly complete: (request: CompletionRequest) => Effect.Effect<Completion, LLMError>;
  /** A completion decoded against `request.schema`, with one repair attempt. */
  readonly completeStructured: <A, I>(
    request: StructuredRequest<A, I>,
  ) => Effect.Effect<StructuredCompletion<A>, LLMError>;
  /** One vector per text, in order, in a single provider call. */
  readonly embed: (
    texts: readonly string[],
    options?: { readonly purpose?: string },
  ) => Effect.Effect<EmbeddingResult, LLMError>;
  readonly usage: Effect.Effect<UsageReport>;
}

/** The LLM port every model-backed layer uses; never raw provider calls. */
export class LLMService extends Context.Tag("veracity/LLMService")<LLMService, LLMServiceShape>() {}
