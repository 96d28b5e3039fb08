import { generateText, wrapLanguageModel } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterAll, describe, expect, it } from "vitest";
import { createVerifier } from "../../facade/create-verifier.js";
import { veracityMiddleware } from "./index.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

const verifier = createVerifier();
afterAll(() => verifier.close());

describe("veracityMiddleware logic", () => {
  it("leaves a step without text (tool calls only) unverified and unchanged", async () => {
    let verifications = 0;
    const counting = {
      ...verifier,
      verify: (...args: Parameters<typeof verifier.verify>) => {
        verifications++;
        return verifier.verify(...args);
      },
    };
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "lookup", input: "{}" }],
        finishReason: { unified: "tool-calls", raw: "tool_calls" },
        usage,
        warnings: [],
      },
    });
    const result = await generateText({
      model: wrapLanguageModel({
        model,
        middleware: veracityMiddleware({ verifier: counting, mode: "block" }),
      }),
      prompt: "Look it up.",
    });
    expect(result.toolCalls).toHaveLength(1);
    expect(result.providerMetadata?.veracity).toBeUndefined();
    expect(verifications).toBe(0);
  });

  it("sends the call's sources and the user's last message to the verifier", async () => {
    const requests: unknown[] = [];
    const recording = {
      ...verifier,
      verify: (request: Parameters<typeof verifier.verify>[0]) => {
        requests.push(request);
        return verifier.verify(request);
      },
    };
    const model = new MockLanguageModelV3({
      doGenerate: {
        content: [{ type: "text", text: "Paris is the capital of France." }],
        finishReason: { unified: "stop", raw: "stop" },
        usage,
        warnings: [],
      },
    });
    await generateText({
      model: wrapLanguageModel({
        model,
        middleware: veracityMiddleware({ verifier: recording, sources: ["Extra."] }),
      }),
      messages: [
        { role: "user", content: "Hello" },
        { role: "assistant", content: "Hi" },
        { role: "user", content: "What is the capital of France?" },
      ],
      providerOptions: { veracity: { sources: ["Paris is the capital of France."], context: "geography" } },
    });
    expect(requests).toEqual([
      {
        text: "Paris is the capital of France.",
        sources: ["Paris is the capital of France.", "Extra."],
        context: "geography",
        question: "What is the capital of France?",
      },
    ]);
  });
});
