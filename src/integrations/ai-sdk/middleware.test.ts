import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, streamText, wrapLanguageModel } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createVerifier, type Verifier } from "../../facade/create-verifier.js";
import { defaultBlockedReply, defaultDisclaimer } from "../../mitigation/actions.js";
import {
  openAIChatCompletion,
  type ProviderServer,
  stalled,
  startProviderServer,
} from "../../testing/index.js";
import { openAIChatStream } from "../testing/openai-stream.js";
import { veracityMiddleware } from "./index.js";
import type { VeracityMiddlewareOptions } from "./options.js";

const source = "The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World's Fair in Paris.";
const supported = "The Eiffel Tower is 330 metres tall. It was completed in 1889.";
const unsupportedSentence = "It was painted gold in 1975 by the mayor of Lyon.";
const partlyUnsupported = `The Eiffel Tower is 330 metres tall. ${unsupportedSentence}`;

let server: ProviderServer;
let verifier: Verifier;
beforeAll(async () => {
  server = await startProviderServer();
  verifier = createVerifier();
});
afterAll(async () => {
  await server.close();
  await verifier.close();
});
afterEach(() => {
  server.requests.length = 0;
});

const modelWith = (options: VeracityMiddlewareOptions) =>
  wrapLanguageModel({
    model: createOpenAICompatible({ name: "local", baseURL: server.openAIBaseUrl }).chatModel("test-model"),
    middleware: veracityMiddleware({ verifier, ...options }),
  });

const callOptions = {
  prompt: "How tall is the Eiffel Tower?",
  providerOptions: { veracity: { sources: [source] } },
};

interface Attached {
  passed: boolean;
  applied: string;
  regenerations: number;
  result?: { passed: boolean; claims: { verdict: string }[] };
  error?: string;
}
const attached = (metadata: unknown): Attached => (metadata as { veracity: Attached }).veracity;

describe("veracityMiddleware with generateText over a real provider", () => {
  it("passes a supported answer unchanged and attaches the verification", async () => {
    server.enqueue("openai.chat", openAIChatCompletion(supported));
    const result = await generateText({ model: modelWith({}), ...callOptions });
    expect(result.text).toBe(supported);
    const veracity = attached(result.providerMetadata);
    expect(veracity).toMatchObject({ passed: true, applied: "none" });
    expect(veracity.result?.claims.map((claim) => claim.verdict)).toEqual(["supported", "supported"]);
  });

  it.each([
    ["disclaimer", `${partlyUnsupported}\n\n${defaultDisclaimer}`],
    ["block", defaultBlockedReply],
    ["redact", "The Eiffel Tower is 330 metres tall.\n\n[1 unsupported statement was removed]"],
  ] as const)("applies %s to an answer with an unsupported claim", async (mode, expected) => {
    server.enqueue("openai.chat", openAIChatCompletion(partlyUnsupported));
    const result = await generateText({ model: modelWith({ mode }), ...callOptions });
    expect(result.text).toBe(expected);
    expect(attached(result.providerMetadata)).toMatchObject({ passed: false, applied: mode });
    expect(attached(result.providerMetadata).result?.claims.map((claim) => claim.verdict)).toEqual([
      "supported",
      "unsupported",
    ]);
  });

  it("regenerates through the wrapped model with the failing claims and returns the verified rewrite", async () => {
    server.enqueue("openai.chat", openAIChatCompletion(partlyUnsupported), openAIChatCompletion(supported));
    const result = await generateText({ model: modelWith({ mode: "regenerate" }), ...callOptions });
    expect(result.text).toBe(supported);
    expect(attached(result.providerMetadata)).toMatchObject({
      passed: true,
      applied: "regenerate",
      regenerations: 1,
    });
    const retry = server.requests[1]?.body as { messages: { role: string; content: string }[] };
    expect(retry.messages.at(-2)).toMatchObject({ role: "assistant", content: partlyUnsupported });
    expect(retry.messages.at(-1)?.content).toContain(unsupportedSentence);
    expect(retry.messages.at(-1)?.content).toContain("UNSUPPORTED CLAIM");
    expect(retry.messages.at(-1)?.content).toContain(`AVAILABLE EVIDENCE:\n[0] ${source}`);
  });

  it("falls back after a rewrite that still fails", async () => {
    server.enqueue(
      "openai.chat",
      openAIChatCompletion(partlyUnsupported),
      openAIChatCompletion(partlyUnsupported),
    );
    const result = await generateText({
      model: modelWith({ mode: "regenerate", fallback: "block" }),
      ...callOptions,
    });
    expect(result.text).toBe(defaultBlockedReply);
    expect(attached(result.providerMetadata)).toMatchObject({
      passed: false,
      applied: "block",
      regenerations: 1,
    });
    expect(server.requests).toHaveLength(2);
  });

  it("takes sources from a retriever given the user's question", async () => {
    const questions: (string | undefined)[] = [];
    server.enqueue("openai.chat", openAIChatCompletion(supported));
    const result = await generateText({
      model: modelWith({
        sources: (question) => {
          questions.push(question);
          return [source];
        },
      }),
      prompt: "How tall is the Eiffel Tower?",
    });
    expect(questions).toEqual(["How tall is the Eiffel Tower?"]);
    expect(attached(result.providerMetadata).passed).toBe(true);
  });

  it("does not pass an answer without sources", async () => {
    server.enqueue("openai.chat", openAIChatCompletion(supported));
    const result = await generateText({ model: modelWith({ mode: "block" }), prompt: "How tall?" });
    expect(result.text).toBe(defaultBlockedReply);
    expect(attached(result.providerMetadata).passed).toBe(false);
  });

  it("blocks the answer when verification itself fails (fail closed)", async () => {
    const broken: Verifier = { ...verifier, verify: () => Promise.reject(new Error("verifier down")) };
    server.enqueue("openai.chat", openAIChatCompletion(supported));
    const result = await generateText({
      model: wrapLanguageModel({
        model: createOpenAICompatible({ name: "local", baseURL: server.openAIBaseUrl }).chatModel("m"),
        middleware: veracityMiddleware({ verifier: broken }),
      }),
      ...callOptions,
    });
    expect(result.text).toBe(defaultBlockedReply);
    expect(attached(result.providerMetadata)).toMatchObject({ passed: false, error: "verifier down" });
  });

  it("rejects malformed call sources with a clear error", async () => {
    server.enqueue("openai.chat", openAIChatCompletion(supported));
    await expect(
      generateText({
        model: modelWith({}),
        prompt: "How tall?",
        providerOptions: { veracity: { sources: "not a list" } },
      }),
    ).rejects.toThrow("providerOptions.veracity.sources must be an array of strings");
  });
});

describe("veracityMiddleware with streamText over a real provider", () => {
  const chunks = ["The Eiffel Tower is 330 metres tall. ", unsupportedSentence];

  it("lets a supported stream through and attaches the verification at the end", async () => {
    server.enqueue(
      "openai.chat",
      openAIChatStream(["The Eiffel Tower is 330 metres tall. ", "It was completed in 1889."]),
    );
    const result = streamText({ model: modelWith({}), ...callOptions });
    expect(await result.text).toBe(supported);
    expect(attached(await result.providerMetadata)).toMatchObject({ passed: true, applied: "none" });
  });

  it.each([
    ["disclaimer", "append", `${partlyUnsupported}\n\n${defaultDisclaimer}`],
    ["disclaimer", "replace", `${partlyUnsupported}\n\n${defaultDisclaimer}`],
    ["block", "replace", defaultBlockedReply],
    [
      "block",
      "append",
      `${partlyUnsupported}\n\n---\nCorrection (the text above failed verification):\n${defaultBlockedReply}`,
    ],
    ["redact", "replace", "The Eiffel Tower is 330 metres tall.\n\n[1 unsupported statement was removed]"],
    [
      "redact",
      "append",
      `${partlyUnsupported}\n\n---\nCorrection (the text above failed verification):\nThe Eiffel Tower is 330 metres tall.\n\n[1 unsupported statement was removed]`,
    ],
  ] as const)("applies %s in %s mode when the stream ends", async (mode, streamMode, expected) => {
    server.enqueue("openai.chat", openAIChatStream(chunks));
    const result = streamText({ model: modelWith({ mode, streamMode }), ...callOptions });
    expect(await result.text).toBe(expected);
    expect(attached(await result.providerMetadata)).toMatchObject({ passed: false, applied: mode });
  });

  it("holds back text in replace mode: no unverified delta reaches the reader", async () => {
    server.enqueue("openai.chat", openAIChatStream(chunks));
    const result = streamText({ model: modelWith({ mode: "block", streamMode: "replace" }), ...callOptions });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.join("")).toBe(defaultBlockedReply);
    expect(deltas.join("")).not.toContain("gold");
  });

  it("releases nothing unverified from a stalled stream in replace mode, and attaches no verdict", async () => {
    server.enqueue("openai.chat", stalled(openAIChatStream([...chunks, " More text.", " And more."])));
    const abort = new AbortController();
    let aborted = 0;
    const result = streamText({
      model: modelWith({ mode: "disclaimer", streamMode: "replace" }),
      ...callOptions,
      includeRawChunks: true,
      abortSignal: abort.signal,
      onAbort: () => {
        aborted += 1;
      },
    });
    const parts: string[] = [];
    for await (const part of result.fullStream) {
      // The provider has delivered the unsupported sentence and then stalls: the caller gives up.
      if (part.type === "raw" && JSON.stringify(part.rawValue).includes("painted gold")) abort.abort();
      parts.push(part.type === "text-delta" ? part.text : part.type);
    }
    expect(aborted).toBe(1);
    expect(parts).toContain("raw");
    expect(parts).toContain("abort");
    expect(parts.join(" ")).not.toContain("Eiffel");
    expect(parts).not.toContain("finish");
    const metadata = await Promise.resolve(result.providerMetadata).catch(() => undefined);
    expect(metadata?.veracity).toBeUndefined();
  });

  it("regenerates a failed stream with a generate call and replaces it", async () => {
    server.enqueue("openai.chat", openAIChatStream(chunks), openAIChatCompletion(supported));
    const result = streamText({
      model: modelWith({ mode: "regenerate", streamMode: "replace" }),
      ...callOptions,
    });
    expect(await result.text).toBe(supported);
    expect(attached(await result.providerMetadata)).toMatchObject({ passed: true, applied: "regenerate" });
    const retry = server.requests[1]?.body as { stream?: boolean } | undefined;
    expect(retry).toBeDefined();
    expect(retry?.stream).not.toBe(true);
  });
});
