import type { Schema } from "effect";

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  /** Who asks (a layer name, "risk"...): used for call counts and in recorded calls. */
  readonly purpose?: string;
  /**
   * Sample number when the same prompt is deliberately asked several times (semantic entropy):
   * part of the cache key, so samples are not collapsed into one cached answer.
   */
  readonly sample?: number;
}

export interface StructuredRequest<A, I> extends CompletionRequest {
  readonly schema: Schema.Schema<A, I>;
  /** Short name of the answer's shape, sent to providers that support named JSON schemas. */
  readonly schemaName?: string;
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface Completion {
  readonly text: string;
  readonly model: string;
  readonly usage: TokenUsage;
  /** Cost of this call in US dollars, from the price table (0 for a cached answer or an unknown model). */
  readonly costUsd: number;
  readonly cached: boolean;
}

export interface StructuredCompletion<A> extends Completion {
  readonly value: A;
  /** Whether the answer decoded only after the repair attempt. */
  readonly repaired: boolean;
}

export interface EmbeddingResult {
  readonly vectors: readonly (readonly number[])[];
  readonly model: string;
  readonly tokens: number;
  readonly costUsd: number;
}
