import { Effect, Either, Schema } from "effect";
import { describe, expect, it } from "vitest";
import {
  makeScriptedModel,
  ScriptedFailure,
  type ScriptedModelOptions,
  ScriptedStall,
} from "../testing/scripted-model.js";
import { makeCostMeter, withMeter, withRequestBudget } from "./budget.js";
import { type LLMCoreOptions, makeLLMService } from "./core.js";
import type { ModelPort } from "./model-port.js";

const Verdict = Schema.Struct({ verdict: Schema.Literal("yes", "no"), confidence: Schema.Number });
const prices = { "scripted:model": { inputPerMillion: 1_000_000, outputPerMillion: 2_000_000 } };
const ask = { messages: [{ role: "user", content: "Is water wet?" }] } as const;

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.either(effect));

const setup = (options: ScriptedModelOptions, core: LLMCoreOptions = {}) => {
  const model = makeScriptedModel(options);
  const service = Effect.runSync(makeLLMService(model.port, { prices, ...core }));
  return { model, service };
};

describe("makeLLMService: completions", () => {
  it("returns the text with usage and its cost from the price table", async () => {
    const { service } = setup({ script: { fixed: "plain answer" } });
    const result = await Effect.runPromise(service.complete(ask));
    expect(result).toMatchObject({
      text: "plain answer",
      cached: false,
      usage: { inputTokens: 10, outputTokens: 10 },
    });
    expect(result.costUsd).toBeCloseTo(10 * 1 + 10 * 2);
  });

  it("serves an identical request from the content-hash cache, at no cost", async () => {
    const { model, service } = setup({ script: { sequence: ["first", "second"] } });
    await Effect.runPromise(service.complete(ask));
    const again = await Effect.runPromise(service.complete(ask));
    expect(again).toMatchObject({ text: "first", cached: true, costUsd: 0 });
    expect(model.generateCalls()).toHaveLength(1);
  });

  it("keeps deliberate samples of one prompt apart in the cache", async () => {
    const { model, service } = setup({ script: { sequence: ["a", "b"] } });
    const first = await Effect.runPromise(service.complete({ ...ask, sample: 0 }));
    const second = await Effect.runPromise(service.complete({ ...ask, sample: 1 }));
    expect([first.text, second.text]).toEqual(["a", "b"]);
    expect(model.generateCalls()).toHaveLength(2);
  });
});

describe("makeLLMService: structured output", () => {
  it("sends the JSON schema to the model and decodes the answer", async () => {
    const { model, service } = setup({
      script: { fixed: 'Sure! ```json\n{"verdict":"yes","confidence":0.9}\n```' },
    });
    const result = await Effect.runPromise(
      service.completeStructured({ ...ask, schema: Verdict, schemaName: "verdict" }),
    );
    expect(result.value).toEqual({ verdict: "yes", confidence: 0.9 });
    const [call] = model.generateCalls();
    expect(call?.jsonSchema).toMatchObject({ properties: { verdict: { enum: ["yes", "no"] } } });
    expect(call?.schemaName).toBe("verdict");
    expect(call?.messages[0]?.role).toBe("system");
    expect(call?.messages[0]?.content).toContain('"verdict"');
  });

  it("repairs once: the second call carries the bad answer and what was wrong", async () => {
    const { model, service } = setup({
      script: { sequence: ['{"verdict":"maybe"}', '{"verdict":"no","confidence":0.2}'] },
    });
    const result = await Effect.runPromise(service.completeStructured({ ...ask, schema: Verdict }));
    expect(result).toMatchObject({ value: { verdict: "no", confidence: 0.2 }, repaired: true });
    const repair = model.generateCalls()[1];
    expect(repair?.messages.at(-2)).toEqual({ role: "assistant", content: '{"verdict":"maybe"}' });
    expect(repair?.prompt).toContain("could not be used");
    expect(repair?.prompt).toContain("verdict");
  });

  it("fails with a typed error keeping both raw answers after a failed repair", async () => {
    const { model, service } = setup({ script: { sequence: ["not json at all", '{"verdict":1}'] } });
    const result = await run(service.completeStructured({ ...ask, schema: Verdict }));
    expect(Either.isLeft(result) && result.left).toMatchObject({
      _tag: "ModelOutputError",
      firstRawText: "not json at all",
      rawText: '{"verdict":1}',
    });
    expect(model.generateCalls()).toHaveLength(2);
  });
});

describe("makeLLMService: outages", () => {
  const fastRetries = { retry: { baseDelayMs: 1, maxDelayMs: 1000, maxRetries: 2 } };

  it("retries a 429 after the Retry-After delay, then succeeds", async () => {
    const { model, service } = setup(
      { script: { sequence: [new ScriptedFailure({ status: 429, retryAfterMs: 120 }), "ok"] } },
      fastRetries,
    );
    const started = Date.now();
    const result = await Effect.runPromise(service.complete(ask));
    expect(result.text).toBe("ok");
    // timing holds under load: a lower bound (the retry waited at least the Retry-After).
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
    expect(model.generateCalls()).toHaveLength(2);
  });

  it.each([
    { name: "500", failure: new ScriptedFailure({ status: 500 }), calls: 3, reason: "server" },
    { name: "network", failure: new ScriptedFailure({ network: true }), calls: 3, reason: "network" },
    { name: "400", failure: new ScriptedFailure({ status: 400 }), calls: 1, reason: "client" },
    { name: "401", failure: new ScriptedFailure({ status: 401 }), calls: 1, reason: "client" },
  ])(
    "a persistent $name is retried only when retryable ($calls calls)",
    async ({ failure, calls, reason }) => {
      const { model, service } = setup({ script: { fixed: failure } }, fastRetries);
      const result = await run(service.complete(ask));
      expect(Either.isLeft(result) && result.left).toMatchObject({
        _tag: "ModelCallError",
        reason,
        attempts: calls,
      });
      expect(model.generateCalls()).toHaveLength(calls);
    },
  );

  it("aborts a stalled call at its timeout and does not retry it", async () => {
    const { model, service } = setup(
      { script: { fixed: new ScriptedStall() } },
      { ...fastRetries, timeoutMs: 50 },
    );
    const result = await run(service.complete(ask));
    expect(Either.isLeft(result) && result.left).toMatchObject({ _tag: "ModelTimeoutError", timeoutMs: 50 });
    expect(model.generateCalls()).toHaveLength(1);
  });

  it("never has more calls in flight than its concurrency limit", async () => {
    let inFlight = 0;
    let peak = 0;
    const port: ModelPort = {
      model: "slow",
      generate: async () => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
        return { text: "done" };
      },
    };
    const service = Effect.runSync(makeLLMService(port, { maxConcurrency: 2 }));
    const requests = Array.from({ length: 6 }, (_, sample) => service.complete({ ...ask, sample }));
    await Effect.runPromise(Effect.all(requests, { concurrency: "unbounded" }));
    expect(peak).toBe(2);
  });
});

describe("makeLLMService: budgets and meters", () => {
  it("refuses a call that would exceed the request's cost budget, without sending it", async () => {
    const { model, service } = setup({ script: { fixed: "never sent" } });
    const result = await run(service.complete(ask).pipe(withRequestBudget({ maxCost: 0.5 })));
    expect(Either.isLeft(result) && result.left).toMatchObject({
      _tag: "ModelBudgetExceededError",
      budget: "cost",
    });
    expect(model.generateCalls()).toHaveLength(0);
  });

  it("refuses a call once the request's latency budget is spent", async () => {
    const { model, service } = setup({ script: { fixed: "late" } });
    const late = Effect.sleep(30).pipe(
      Effect.zipRight(service.complete(ask)),
      withRequestBudget({ maxLatencyMs: 10 }),
    );
    const result = await run(late);
    expect(Either.isLeft(result) && result.left).toMatchObject({
      _tag: "ModelBudgetExceededError",
      budget: "latency",
    });
    expect(model.generateCalls()).toHaveLength(0);
  });

  it("charges every call to the meters in scope, including forked ones", async () => {
    const { service } = setup({ script: { fixed: "x" } });
    const meter = makeCostMeter();
    const calls = [0, 1, 2].map((sample) => service.complete({ ...ask, sample }));
    await Effect.runPromise(Effect.all(calls, { concurrency: 3 }).pipe(withMeter(meter)));
    expect(meter.calls).toBe(3);
    expect(meter.spentUsd).toBeCloseTo(90);
    const usage = await Effect.runPromise(service.usage);
    expect(meter.tokens).toBe(usage.inputTokens + usage.outputTokens);
    expect(meter.tokens).toBeGreaterThan(0);
    expect(usage).toMatchObject({ calls: 3, cachedCalls: 0 });
  });
});

describe("makeLLMService: embeddings", () => {
  it("embeds a batch in one call, one vector per text", async () => {
    const { model, service } = setup({ script: { fixed: "" } });
    const result = await Effect.runPromise(service.embed(["a cat", "a dog", "a cat"]));
    expect(result.vectors).toHaveLength(3);
    expect(result.vectors[0]).toEqual(result.vectors[2]);
    expect(model.embedCalls()).toHaveLength(1);
  });

  it("fails as not configured when there is no embedding model", async () => {
    const { service } = setup({ script: { fixed: "" }, embed: false });
    expect(service.embeddingsUnavailable).toContain("VERACITY_EMBEDDING_MODEL");
    const result = await run(service.embed(["a"]));
    expect(Either.isLeft(result) && result.left).toMatchObject({
      _tag: "ModelCallError",
      reason: "not-configured",
    });
  });
});

describe("makeLLMService: cache and budgets together", () => {
  it("serves a cached answer even when the budget could not pay for a new call", async () => {
    const { model, service } = setup({ script: { fixed: "cached" } });
    await Effect.runPromise(service.complete(ask));
    const again = await Effect.runPromise(service.complete(ask).pipe(withRequestBudget({ maxCost: 0 })));
    expect(again).toMatchObject({ text: "cached", cached: true });
    expect(model.generateCalls()).toHaveLength(1);
  });
});
