import { Effect, Either, Schema } from "effect";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type ProviderServer, startProviderServer } from "../../testing/provider-server.js";
import {
  anthropicError,
  anthropicMessage,
  anthropicToolUse,
  malformedBody,
  openAIChatCompletion,
  openAIEmbeddings,
  openAIError,
  openAIToolCall,
  stalled,
} from "../../testing/recordings.js";
import type { LLMCoreOptions } from "../core.js";
import { makeLLMServiceFromConfig } from "../live.js";

const Verdict = Schema.Struct({
  verdict: Schema.Literal("supported", "contradicted"),
  confidence: Schema.Number,
});
const ask = { messages: [{ role: "user", content: "Was the Eiffel Tower finished in 1889?" }] } as const;
const core: LLMCoreOptions = { timeoutMs: 2000, retry: { baseDelayMs: 5, maxDelayMs: 2000, maxRetries: 2 } };

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

const serviceFor = (model: string, extra: Record<string, string> = {}, options: LLMCoreOptions = core) =>
  Effect.runPromise(
    makeLLMServiceFromConfig(
      {
        VERACITY_MODEL: model,
        OPENAI_API_KEY: "sk-test",
        ANTHROPIC_API_KEY: "sk-ant-test",
        OPENAI_BASE_URL: server.openAIBaseUrl,
        ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
        ...extra,
      },
      {},
      options,
    ),
  );

const lastBody = () => server.requests.at(-1)?.body as Record<string, unknown>;

describe("OpenAI adapter over HTTP", () => {
  it("sends a chat completion with the JSON schema as response format and decodes the answer", async () => {
    server.enqueue("openai.chat", openAIChatCompletion('{"verdict":"supported","confidence":0.93}'));
    const llm = await serviceFor("openai:gpt-4o-mini");
    const result = await Effect.runPromise(
      llm.completeStructured({ ...ask, schema: Verdict, schemaName: "verdict" }),
    );
    expect(result.value).toEqual({ verdict: "supported", confidence: 0.93 });
    expect(result.usage).toEqual({ inputTokens: 42, outputTokens: 17 });
    expect(result.model).toBe("openai:gpt-4o-mini");
    const request = server.requests[0];
    expect(request?.route).toBe("openai.chat");
    expect(request?.headers.authorization).toBe("Bearer sk-test");
    expect(lastBody()).toMatchObject({ model: "gpt-4o-mini", response_format: { type: "json_schema" } });
    expect(JSON.stringify(lastBody().messages)).toContain("Eiffel Tower");
  });

  it("reads a tool call's arguments as the answer", async () => {
    server.enqueue("openai.chat", openAIToolCall("verdict", { verdict: "contradicted", confidence: 0.8 }));
    const llm = await serviceFor("openai:gpt-4o-mini");
    const result = await Effect.runPromise(llm.completeStructured({ ...ask, schema: Verdict }));
    expect(result.value).toEqual({ verdict: "contradicted", confidence: 0.8 });
  });

  it("repairs malformed JSON from the model with a second request", async () => {
    server.enqueue(
      "openai.chat",
      openAIChatCompletion('{"verdict": "supported", "confidence": '),
      openAIChatCompletion('{"verdict":"supported","confidence":0.7}'),
    );
    const llm = await serviceFor("openai:gpt-4o-mini");
    const result = await Effect.runPromise(llm.completeStructured({ ...ask, schema: Verdict }));
    expect(result).toMatchObject({ repaired: true, value: { confidence: 0.7 } });
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(lastBody().messages)).toContain("could not be used");
  });

  it("waits for Retry-After after a 429 and then succeeds", async () => {
    server.enqueue(
      "openai.chat",
      openAIError(429, "Rate limit reached", { "retry-after": "1" }),
      openAIChatCompletion("fine"),
    );
    const llm = await serviceFor("openai:gpt-4o-mini");
    const started = Date.now();
    const result = await Effect.runPromise(llm.complete(ask));
    expect(result.text).toBe("fine");
    // timing holds under load: the clock readings in this file are lower bounds (a retry waited at least so long).
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(server.requests).toHaveLength(2);
  });

  it("retries 500s up to the limit, then fails with a typed error, never an answer", async () => {
    server.enqueue("openai.chat", ...[1, 2, 3].map(() => openAIError(500, "The server had an error")));
    const llm = await serviceFor("openai:gpt-4o-mini");
    const result = await Effect.runPromise(Effect.either(llm.complete(ask)));
    expect(Either.isLeft(result) && result.left).toMatchObject({
      _tag: "ModelCallError",
      reason: "server",
      status: 500,
      attempts: 3,
    });
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry a 400", async () => {
    server.enqueue("openai.chat", openAIError(400, "Invalid schema"), openAIChatCompletion("unused"));
    const llm = await serviceFor("openai:gpt-4o-mini");
    const result = await Effect.runPromise(Effect.either(llm.complete(ask)));
    expect(Either.isLeft(result) && result.left).toMatchObject({
      _tag: "ModelCallError",
      reason: "client",
      status: 400,
    });
    expect(server.requests).toHaveLength(1);
    server.requests.length = 0;
    await Effect.runPromise(llm.complete({ messages: [{ role: "user", content: "drain the queue" }] }));
  });

  it("fails with a typed error on a malformed response body", async () => {
    server.enqueue("openai.chat", malformedBody());
    const llm = await serviceFor("openai:gpt-4o-mini");
    const result = await Effect.runPromise(Effect.either(llm.complete(ask)));
    expect(Either.isLeft(result) && result.left._tag).toBe("ModelCallError");
  });

  it("aborts a stalled response at the timeout", async () => {
    server.enqueue("openai.chat", stalled(openAIChatCompletion("never finished")));
    const llm = await serviceFor("openai:gpt-4o-mini", {}, { ...core, timeoutMs: 300 });
    const result = await Effect.runPromise(Effect.either(llm.complete(ask)));
    expect(Either.isLeft(result) && result.left).toMatchObject({ _tag: "ModelTimeoutError", timeoutMs: 300 });
    expect(server.requests).toHaveLength(1);
  });

  it("embeds through the embeddings endpoint", async () => {
    server.enqueue(
      "openai.embeddings",
      openAIEmbeddings([
        [1, 0],
        [0, 1],
      ]),
    );
    const llm = await serviceFor("openai:gpt-4o-mini", {
      VERACITY_EMBEDDING_MODEL: "openai:text-embedding-3-small",
    });
    const result = await Effect.runPromise(llm.embed(["one", "two"]));
    expect(result.vectors).toEqual([
      [1, 0],
      [0, 1],
    ]);
    expect(result.tokens).toBe(16);
    expect(lastBody()).toMatchObject({ model: "text-embedding-3-small", input: ["one", "two"] });
  });
});

describe("Anthropic adapter over HTTP", () => {
  it("sends a messages request with the key and decodes a structured answer", async () => {
    server.enqueue("anthropic.messages", anthropicMessage('{"verdict":"contradicted","confidence":0.9}'));
    const llm = await serviceFor("anthropic:claude-3-5-haiku-20241022");
    const result = await Effect.runPromise(llm.completeStructured({ ...ask, schema: Verdict }));
    expect(result.value).toEqual({ verdict: "contradicted", confidence: 0.9 });
    expect(result.usage).toEqual({ inputTokens: 38, outputTokens: 21 });
    expect(server.requests[0]?.headers["x-api-key"]).toBe("sk-ant-test");
    expect(lastBody()).toMatchObject({ model: "claude-3-5-haiku-20241022" });
    expect(JSON.stringify(lastBody().system)).toContain("JSON Schema");
  });

  it("reads a tool_use block as the answer", async () => {
    server.enqueue("anthropic.messages", anthropicToolUse("json", { verdict: "supported", confidence: 0.6 }));
    const llm = await serviceFor("anthropic:claude-3-5-haiku-20241022");
    const result = await Effect.runPromise(llm.completeStructured({ ...ask, schema: Verdict }));
    expect(result.value).toEqual({ verdict: "supported", confidence: 0.6 });
  });

  it("retries an overloaded 429 honouring retry-after", async () => {
    server.enqueue(
      "anthropic.messages",
      anthropicError(429, "Number of requests has exceeded your rate limit", { "retry-after": "0.3" }),
      anthropicMessage("recovered"),
    );
    const llm = await serviceFor("anthropic:claude-3-5-haiku-20241022");
    const started = Date.now();
    const result = await Effect.runPromise(llm.complete(ask));
    expect(result.text).toBe("recovered");
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
  });
});

describe("Anthropic adapter over HTTP: outages", () => {
  const model = "anthropic:claude-3-5-haiku-20241022";

  it("retries 500s up to the limit, then fails with a typed error, never an answer", async () => {
    server.enqueue(
      "anthropic.messages",
      ...[1, 2, 3].map(() => anthropicError(500, "Internal server error")),
    );
    const llm = await serviceFor(model);
    const result = await Effect.runPromise(
      Effect.either(llm.completeStructured({ ...ask, schema: Verdict })),
    );
    expect(Either.isLeft(result) && result.left).toMatchObject({
      _tag: "ModelCallError",
      reason: "server",
      status: 500,
      attempts: 3,
    });
    expect(server.requests.map((request) => request.route)).toEqual([
      "anthropic.messages",
      "anthropic.messages",
      "anthropic.messages",
    ]);
  });

  it("fails with a typed error on a malformed response body, without retrying", async () => {
    server.enqueue("anthropic.messages", malformedBody(), anthropicMessage("unused"));
    const llm = await serviceFor(model);
    const result = await Effect.runPromise(Effect.either(llm.complete(ask)));
    expect(Either.isLeft(result) && result.left).toMatchObject({ _tag: "ModelCallError", retryable: false });
    expect(server.requests).toHaveLength(1);
    server.requests.length = 0;
    await Effect.runPromise(llm.complete({ messages: [{ role: "user", content: "drain the queue" }] }));
  });

  it("repairs a malformed JSON answer with a second messages request", async () => {
    server.enqueue(
      "anthropic.messages",
      anthropicMessage('{"verdict": "contradicted", "confidence"'),
      anthropicMessage('{"verdict":"contradicted","confidence":0.8}'),
    );
    const llm = await serviceFor(model);
    const result = await Effect.runPromise(llm.completeStructured({ ...ask, schema: Verdict }));
    expect(result).toMatchObject({ repaired: true, value: { verdict: "contradicted", confidence: 0.8 } });
    expect(server.requests).toHaveLength(2);
    expect(JSON.stringify(lastBody().messages)).toContain("could not be used");
  });

  it("aborts a stalled response at the timeout", async () => {
    server.enqueue("anthropic.messages", stalled(anthropicMessage("never finished")));
    const llm = await serviceFor(model, {}, { ...core, timeoutMs: 300 });
    const result = await Effect.runPromise(Effect.either(llm.complete(ask)));
    expect(Either.isLeft(result) && result.left).toMatchObject({ _tag: "ModelTimeoutError", timeoutMs: 300 });
    expect(server.requests).toHaveLength(1);
  });
});

describe("OpenAI-compatible adapter over HTTP", () => {
  it("talks to the base URL of the model string, for chat and embeddings", async () => {
    server.enqueue("openai.chat", openAIChatCompletion("local answer"));
    server.enqueue("openai.embeddings", openAIEmbeddings([[0.5, 0.5]]));
    const base = server.openAIBaseUrl;
    const llm = await serviceFor(`openai-compatible:llama3.1:8b@${base}`, {
      VERACITY_EMBEDDING_MODEL: `openai-compatible:nomic-embed-text@${base}`,
      OPENAI_BASE_URL: "http://127.0.0.1:9/unused",
    });
    expect((await Effect.runPromise(llm.complete(ask))).text).toBe("local answer");
    expect(server.requests[0]?.body).toMatchObject({ model: "llama3.1:8b" });
    expect((await Effect.runPromise(llm.embed(["x"]))).vectors).toEqual([[0.5, 0.5]]);
    expect(llm.model).toBe(`openai-compatible:llama3.1:8b@${base}`);
  });
});
