/**
 * A RAG answer checked with the Veracity middleware for the AI SDK.
 *
 *   node --import tsx examples/rag-middleware.ts
 *
 * Without arguments it runs against a local OpenAI-compatible server on 127.0.0.1 that replays a scripted
 * answer, so it needs no key. In your application, wrap your own model the same way.
 */
import { pathToFileURL } from "node:url";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, wrapLanguageModel } from "ai";
import { veracityMiddleware } from "veracity/ai-sdk";
import { openAIChatCompletion, startProviderServer } from "veracity/testing";

const documents = [
  "The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World's Fair in Paris.",
  "About 7 million people visit the tower every year.",
];

/** A toy retriever: the documents sharing a word with the question. */
const retrieve = (question: string | undefined): string[] => {
  const words = new Set((question ?? "").toLowerCase().match(/[a-z]{4,}/g) ?? []);
  return documents.filter((document) => [...words].some((word) => document.toLowerCase().includes(word)));
};

export const main = async (
  modelAnswer = "The Eiffel Tower is 330 metres tall. It was painted gold in 1975.",
) => {
  const provider = await startProviderServer({ respond: () => openAIChatCompletion(modelAnswer) });
  try {
    const model = wrapLanguageModel({
      model: createOpenAICompatible({ name: "local", baseURL: provider.openAIBaseUrl }).chatModel("any"),
      middleware: veracityMiddleware({ sources: retrieve, mode: "redact" }),
    });
    const result = await generateText({ model, prompt: "How tall is the Eiffel Tower?" });
    const veracity = result.providerMetadata?.veracity as { passed: boolean; applied: string } | undefined;
    return { text: result.text, passed: veracity?.passed, applied: veracity?.applied };
  } finally {
    await provider.close();
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(await main());
}
