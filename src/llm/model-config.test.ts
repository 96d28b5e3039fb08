import { Effect, Either } from "effect";
import { describe, expect, it } from "vitest";
import { makeLLMServiceFromConfig } from "./live.js";
import { parseModelString, resolveModelSpecs } from "./model-config.js";

describe("parseModelString", () => {
  it.each([
    ["openai:gpt-4o-mini", { provider: "openai", modelId: "gpt-4o-mini" }],
    ["anthropic:claude-3-5-haiku-latest", { provider: "anthropic", modelId: "claude-3-5-haiku-latest" }],
    [
      "openai-compatible:llama3.1:8b@http://127.0.0.1:11434/v1",
      { provider: "openai-compatible", modelId: "llama3.1:8b", baseUrl: "http://127.0.0.1:11434/v1" },
    ],
    [
      "openai-compatible:org/model@name@https://vllm.internal:8000/v1",
      { provider: "openai-compatible", modelId: "org/model@name", baseUrl: "https://vllm.internal:8000/v1" },
    ],
  ])("reads %s", (value, expected) => {
    expect(parseModelString(value)).toEqual(Either.right(expected));
  });

  it.each([
    ["gpt-4o-mini", "no provider prefix"],
    ["openai:", "no model id"],
    ["mistral:large", 'unknown provider "mistral"'],
    ["openai-compatible:llama3", "expected MODEL@BASE_URL"],
    ["", "empty"],
  ])("rejects %j with a reason and the accepted formats", (value, reason) => {
    const result = parseModelString(value);
    expect(Either.isLeft(result) && result.left.message).toContain(reason);
    expect(Either.isLeft(result) && result.left.message).toContain("openai-compatible:MODEL@BASE_URL");
  });
});

describe("resolveModelSpecs", () => {
  it("prefers the explicit selection (--model) over VERACITY_MODEL", () => {
    const result = resolveModelSpecs({ VERACITY_MODEL: "openai:a" }, { model: "anthropic:b" });
    expect(Either.getOrThrow(result).model).toEqual({ provider: "anthropic", modelId: "b" });
  });

  it("reads VERACITY_MODEL and VERACITY_EMBEDDING_MODEL", () => {
    const result = resolveModelSpecs({ VERACITY_MODEL: "openai:a", VERACITY_EMBEDDING_MODEL: "openai:e" });
    expect(Either.getOrThrow(result)).toEqual({
      model: { provider: "openai", modelId: "a" },
      embeddingModel: { provider: "openai", modelId: "e" },
    });
  });
});

describe("makeLLMServiceFromConfig", () => {
  it("names the missing key", async () => {
    const result = await Effect.runPromise(
      Effect.either(makeLLMServiceFromConfig({ VERACITY_MODEL: "openai:gpt-4o-mini" })),
    );
    expect(Either.isLeft(result) && result.left).toMatchObject({
      _tag: "ConfigError",
      key: "OPENAI_API_KEY",
    });
  });

  it("builds without a model, says what to set, and fails every call as not configured", async () => {
    const llm = await Effect.runPromise(makeLLMServiceFromConfig({}));
    expect(llm.textUnavailable).toContain("VERACITY_MODEL");
    expect(llm.textUnavailable).toContain("--model");
    const result = await Effect.runPromise(
      Effect.either(llm.complete({ messages: [{ role: "user", content: "x" }] })),
    );
    expect(Either.isLeft(result) && result.left).toMatchObject({
      _tag: "ModelCallError",
      reason: "not-configured",
    });
  });

  it("refuses Anthropic as an embedding model", async () => {
    const env = { VERACITY_EMBEDDING_MODEL: "anthropic:claude", ANTHROPIC_API_KEY: "k" };
    const result = await Effect.runPromise(Effect.either(makeLLMServiceFromConfig(env)));
    expect(Either.isLeft(result) && result.left.message).toContain("no embedding models");
  });
});
