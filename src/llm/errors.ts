import { Data } from "effect";

/** Why a provider call failed. Only `rate-limited`, `server` and `network` are worth retrying. */
export type ModelCallFailure =
  | "rate-limited"
  | "server"
  | "network"
  | "client"
  | "not-configured"
  | "unknown";

/** A provider call failed: HTTP error, network error, or a provider that is not configured. */
export class ModelCallError extends Data.TaggedError("ModelCallError")<{
  readonly message: string;
  readonly reason: ModelCallFailure;
  readonly retryable: boolean;
  readonly model: string;
  readonly status?: number;
  /** Delay the provider asked for (Retry-After), in milliseconds. */
  readonly retryAfterMs?: number;
  /** How many attempts were made before giving up. */
  readonly attempts?: number;
}> {}

/** A single provider call took longer than its timeout and was aborted. */
export class ModelTimeoutError extends Data.TaggedError("ModelTimeoutError")<{
  readonly message: string;
  readonly model: string;
  readonly timeoutMs: number;
}> {}

/** The model answered, but its answer did not decode against the schema, even after one repair attempt. */
export class ModelOutputError extends Data.TaggedError("ModelOutputError")<{
  readonly message: string;
  readonly model: string;
  /** The last raw answer (after the repair attempt). */
  readonly rawText: string;
  /** The first raw answer (before the repair attempt). */
  readonly firstRawText: string;
  readonly issue: string;
}> {}

/** A call was refused because it would exceed the request's cost or latency budget. */
export class ModelBudgetExceededError extends Data.TaggedError("ModelBudgetExceededError")<{
  readonly message: string;
  readonly budget: "cost" | "latency";
  readonly limit: number;
  /** Spent so far plus the estimate of the refused call (cost), or elapsed time (latency). */
  readonly required: number;
}> {}

/** Every failure of the LLM port. */
export type LLMError = ModelCallError | ModelTimeoutError | ModelOutputError | ModelBudgetExceededError;
