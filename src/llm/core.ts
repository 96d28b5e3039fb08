import { Effect, Either, FiberRef } from "effect";
import { errorMessage } from "../model/error-message.js";
import { makeFifoSemaphore } from "../model/fifo-semaphore.js";
import { type CostMeter, currentMeters } from "./budget.js";
import { type ContentCache, contentKey, makeContentCache } from "./cache.js";
import {
  type LLMError,
  ModelBudgetExceededError,
  ModelCallError,
  ModelOutputError,
  ModelTimeoutError,
} from "./errors.js";
import type { LLMServiceShape, UsageReport } from "./llm-service.js";
import type { ChatMessage, Completion, CompletionRequest, StructuredRequest } from "./messages.js";
import { type GenerateRequest, type Generation, type ModelPort, ProviderFailure } from "./model-port.js";
import { costOf, defaultPrices, estimateTokens, type PriceTable, priceOf } from "./prices.js";
import { defaultRetryPolicy, type RetryPolicy, retryDelayMs } from "./retry.js";
import { decodeAnswer, jsonSchemaOf, repairInstruction, structuredInstruction } from "./structured-output.js";
import { makeUsageCounter } from "./usage-counter.js";

export interface LLMCoreOptions {
  /** Timeout of one provider call (default 30 s). */
  readonly timeoutMs?: number;
  readonly retry?: Partial<RetryPolicy>;
  /** Provider calls in flight at once (default 4). */
  readonly maxConcurrency?: number;
  /** Cached answers kept (default 1000; 0 disables the cache). */
  readonly cacheEntries?: number;
  readonly prices?: PriceTable;
  /** Output tokens assumed when estimating the cost of a call with no `maxOutputTokens` (default 512). */
  readonly assumedOutputTokens?: number;
}

type CachedAnswer = Generation & { readonly kind: "text" };
type CachedVectors = { readonly kind: "vectors"; readonly vectors: readonly (readonly number[])[] };

const now = Effect.clockWith((clock) => clock.currentTimeMillis);

const classify = (model: string, error: unknown): ModelCallError => {
  if (error instanceof ProviderFailure) {
    const { status, retryable, retryAfterMs, network } = error.details;
    const reason =
      status === 429
        ? "rate-limited"
        : status !== undefined && status >= 500
          ? "server"
          : network
            ? "network"
            : "client";
    return new ModelCallError({
      message: error.message,
      reason,
      retryable,
      model,
      ...(status === undefined ? {} : { status }),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }
  const message = errorMessage(error);
  return new ModelCallError({ message, reason: "unknown", retryable: false, model });
};

/** Refuses a call that a meter in scope cannot afford: past its deadline, or over its cost limit. */
const checkBudgets = (meters: readonly CostMeter[], estimatedCost: number, at: number) => {
  for (const meter of meters) {
    if (meter.deadline !== undefined && at >= meter.deadline) {
      return Effect.fail(
        new ModelBudgetExceededError({
          message: "the request's latency budget is spent; no further model call is made",
          budget: "latency",
          limit: meter.deadline,
          required: at,
        }),
      );
    }
    if (meter.maxCost !== undefined && meter.spentUsd + estimatedCost > meter.maxCost) {
      return Effect.fail(
        new ModelBudgetExceededError({
          message: `the call would exceed the request's cost budget of $${meter.maxCost}`,
          budget: "cost",
          limit: meter.maxCost,
          required: meter.spentUsd + estimatedCost,
        }),
      );
    }
  }
  return Effect.void;
};

const earliestDeadline = (meters: readonly CostMeter[]): number | undefined =>
  meters.reduce<number | undefined>(
    (earliest, meter) =>
      meter.deadline === undefined ? earliest : Math.min(earliest ?? meter.deadline, meter.deadline),
    undefined,
  );

const withStructuredInstruction = (messages: readonly ChatMessage[], instruction: string): ChatMessage[] => {
  const [first, ...rest] = messages;
  if (first?.role === "system")
    return [{ role: "system", content: `${first.content}\n\n${instruction}` }, ...rest];
  return [{ role: "system", content: instruction }, ...messages];
};

/**
 * The LLM core over one adapter: JSON decoding with one repair attempt, usage and cost, per-call
 * timeouts, retries with backoff on retryable failures only (honouring Retry-After), a concurrency
 * limit, a content-hash cache, and the request budgets of `withRequestBudget`.
 */
export const makeLLMService = (
  port: ModelPort,
  options: LLMCoreOptions = {},
): Effect.Effect<LLMServiceShape> =>
  Effect.gen(function* () {
    const timeoutMs = options.timeoutMs ?? 30_000;
    const policy: RetryPolicy = { ...defaultRetryPolicy, ...options.retry };
    const prices = options.prices ?? defaultPrices;
    const assumedOutputTokens = options.assumedOutputTokens ?? 512;
    const semaphore = makeFifoSemaphore(Math.max(1, options.maxConcurrency ?? 4));
    const cache: ContentCache<CachedAnswer | CachedVectors> = makeContentCache(options.cacheEntries ?? 1000);
    const counter = makeUsageCounter();

    /** One attempt, inside the concurrency limit, aborted at its timeout. */
    const attempt = <A>(
      model: string,
      run: (signal: AbortSignal) => Promise<A>,
      deadline: number | undefined,
    ) =>
      Effect.gen(function* () {
        const started = yield* now;
        const limit =
          deadline === undefined ? timeoutMs : Math.max(1, Math.min(timeoutMs, deadline - started));
        return yield* Effect.tryPromise({ try: run, catch: (error) => classify(model, error) }).pipe(
          Effect.timeoutFail({
            duration: limit,
            onTimeout: () =>
              new ModelTimeoutError({
                message: `the model call took longer than ${limit} ms`,
                model,
                timeoutMs: limit,
              }),
          }),
          Effect.tapError(() => Effect.sync(() => counter.failed())),
          semaphore.withPermit,
        );
      });

    /** Attempts with backoff; only retryable call errors are retried, never past the request's deadline. */
    const withRetries = <A>(
      model: string,
      run: (signal: AbortSignal) => Promise<A>,
      purpose: string | undefined,
    ) =>
      Effect.gen(function* () {
        const meters = yield* FiberRef.get(currentMeters);
        const deadline = earliestDeadline(meters);
        let retry = 0;
        while (true) {
          counter.sent(purpose);
          const result = yield* Effect.either(attempt(model, run, deadline));
          if (Either.isRight(result)) return result.right;
          const error = result.left;
          const delay = error._tag === "ModelCallError" ? retryDelayMs(policy, retry, error.retryAfterMs) : 0;
          const at = yield* now;
          const canRetry =
            error._tag === "ModelCallError" &&
            error.retryable &&
            retry < policy.maxRetries &&
            (deadline === undefined || at + delay < deadline);
          if (!canRetry) {
            return yield* Effect.fail(
              error._tag === "ModelCallError" ? new ModelCallError({ ...error, attempts: retry + 1 }) : error,
            );
          }
          yield* Effect.sleep(delay);
          retry += 1;
        }
      });

    const charge = (costUsd: number, tokens: number) =>
      Effect.map(FiberRef.get(currentMeters), (meters) => {
        for (const meter of meters) {
          meter.spentUsd += costUsd;
          meter.calls += 1;
          meter.tokens += tokens;
        }
      });

    const generate = (
      request: GenerateRequest,
      sample: number | undefined,
    ): Effect.Effect<Completion, LLMError> =>
      Effect.gen(function* () {
        const model = port.model;
        const price = priceOf(prices, model);
        const promptTokens = estimateTokens(request.messages.map((message) => message.content).join("\n"));
        const estimate = costOf(price, promptTokens, request.maxOutputTokens ?? assumedOutputTokens);
        const key = contentKey({ model, sample, ...request, purpose: undefined });
        const hit = cache.get(key);
        if (hit?.kind === "text") {
          counter.cached();
          return {
            text: hit.text,
            model,
            usage: { inputTokens: 0, outputTokens: 0 },
            costUsd: 0,
            cached: true,
          };
        }
        yield* checkBudgets(yield* FiberRef.get(currentMeters), estimate, yield* now);
        const generation = yield* withRetries(
          model,
          (signal) => port.generate(request, signal),
          request.purpose,
        );
        const usage = {
          inputTokens: generation.inputTokens ?? promptTokens,
          outputTokens: generation.outputTokens ?? estimateTokens(generation.text),
        };
        const costUsd = costOf(price, usage.inputTokens, usage.outputTokens);
        counter.add(usage, costUsd);
        yield* charge(costUsd, usage.inputTokens + usage.outputTokens);
        cache.set(key, { kind: "text", ...generation });
        return { text: generation.text, model, usage, costUsd, cached: false };
      });

    const toGenerateRequest = (request: CompletionRequest): GenerateRequest => ({
      messages: request.messages,
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
      ...(request.purpose === undefined ? {} : { purpose: request.purpose }),
    });

    const complete: LLMServiceShape["complete"] = (request) =>
      generate(toGenerateRequest(request), request.sample);

    const completeStructured: LLMServiceShape["completeStructured"] = <A, I>(
      request: StructuredRequest<A, I>,
    ) =>
      Effect.gen(function* () {
        const jsonSchema = jsonSchemaOf(request.schema);
        const messages = withStructuredInstruction(request.messages, structuredInstruction(jsonSchema));
        const base: GenerateRequest = {
          ...toGenerateRequest(request),
          messages,
          jsonSchema,
          ...(request.schemaName === undefined ? {} : { schemaName: request.schemaName }),
        };
        const first = yield* generate(base, request.sample);
        const decoded = decodeAnswer(request.schema, first.text);
        if (Either.isRight(decoded)) return { ...first, value: decoded.right, repaired: false };
        const repairMessages: ChatMessage[] = [
          ...messages,
          { role: "assistant", content: first.text },
          { role: "user", content: repairInstruction(decoded.left, jsonSchema) },
        ];
        const second = yield* generate({ ...base, messages: repairMessages }, request.sample);
        const repaired = decodeAnswer(request.schema, second.text);
        if (Either.isRight(repaired)) {
          return {
            ...second,
            usage: {
              inputTokens: first.usage.inputTokens + second.usage.inputTokens,
              outputTokens: first.usage.outputTokens + second.usage.outputTokens,
            },
            costUsd: first.costUsd + second.costUsd,
            value: repaired.right,
            repaired: true,
          };
        }
        return yield* Effect.fail(
          new ModelOutputError({
            message: "the model's answer did not match the expected schema, even after one repair attempt",
            model: port.model,
            rawText: second.text,
            firstRawText: first.text,
            issue: repaired.left,
          }),
        );
      });

    const embeddingsUnavailable =
      port.embed === undefined
        ? "no embedding model is configured (set VERACITY_EMBEDDING_MODEL)"
        : undefined;

    const embed: LLMServiceShape["embed"] = (texts, embedOptions = {}) =>
      Effect.gen(function* () {
        const embedder = port.embed;
        const model = port.embeddingModel ?? port.model;
        if (embedder === undefined) {
          return yield* Effect.fail(
            new ModelCallError({
              message: embeddingsUnavailable ?? "no embedding model",
              reason: "not-configured",
              retryable: false,
              model,
            }),
          );
        }
        if (texts.length === 0) return { vectors: [], model, tokens: 0, costUsd: 0 };
        const price = priceOf(prices, model);
        const estimatedTokens = estimateTokens(texts.join("\n"));
        const key = contentKey({ model, embed: texts });
        const hit = cache.get(key);
        if (hit?.kind === "vectors") {
          counter.cached();
          return { vectors: hit.vectors, model, tokens: 0, costUsd: 0 };
        }
        yield* checkBudgets(
          yield* FiberRef.get(currentMeters),
          costOf(price, estimatedTokens, 0),
          yield* now,
        );
        const result = yield* withRetries(model, (signal) => embedder(texts, signal), embedOptions.purpose);
        if (result.vectors.length !== texts.length) {
          return yield* Effect.fail(
            new ModelCallError({
              message: `the embedding model returned ${result.vectors.length} vectors for ${texts.length} texts`,
              reason: "unknown",
              retryable: false,
              model,
            }),
          );
        }
        const tokens = result.tokens ?? estimatedTokens;
        const costUsd = costOf(price, tokens, 0);
        counter.add({ inputTokens: tokens, outputTokens: 0 }, costUsd);
        yield* charge(costUsd, tokens);
        cache.set(key, { kind: "vectors", vectors: result.vectors });
        return { vectors: result.vectors, model, tokens, costUsd };
      });

    const usage: Effect.Effect<UsageReport> = Effect.sync(() => counter.report());

    return {
      model: port.model,
      embeddingModel: port.embeddingModel,
      textUnavailable: undefined,
      embeddingsUnavailable,
      complete,
      completeStructured,
      embed,
      usage,
    };
  });
