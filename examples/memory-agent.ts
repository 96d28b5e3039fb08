/**
 * An agent writing to its memory through the gate: the model calls a `remember` tool, and what is stored is
 * decided by the claim's evidence, not by the model. A user's stated preference is stored; an unsupported
 * claim the agent synthesised is queued for the user's review instead, and the agent is told so.
 *
 *   node --import tsx examples/memory-agent.ts
 *
 * Runs against a local OpenAI-compatible server on 127.0.0.1 replaying the model's tool calls and its last
 * answer, so it needs no key; in your application, pass your own model. Uses an in-memory PGlite database;
 * pass a PGlite directory or a postgres:// URL to keep the memories.
 */
import { pathToFileURL } from "node:url";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { createMemoryGate, type MemoryGateClient } from "veracity";
import { openAIChatCompletion, openAIToolCall, startProviderServer } from "veracity/testing";

interface Remember {
  readonly content: string;
  readonly memoryType: "fact" | "preference";
  readonly source: "user" | "ai_synthesis";
}

/** The agent's only way to write memory: every write goes through the gate, for the signed-in user. */
const rememberTool = (gate: MemoryGateClient, userId: string) =>
  tool({
    description: "Save something worth remembering about the user or their systems.",
    inputSchema: jsonSchema<Remember>({
      type: "object",
      properties: {
        content: { type: "string" },
        memoryType: { enum: ["fact", "preference"] },
        source: { enum: ["user", "ai_synthesis"] },
      },
      required: ["content", "memoryType", "source"],
      additionalProperties: false,
    }),
    execute: async (input) => {
      const outcome = await gate.ingest({ ...input, userId });
      return { status: outcome.status, reason: outcome.result.reason };
    },
  });

/** The tool results in a chat-completions request body. */
const toolResultsOf = (body: unknown): { status: string }[] =>
  ((body as { messages?: { role: string; content: string }[] } | undefined)?.messages ?? [])
    .filter((message) => message.role === "tool")
    .map((message) => JSON.parse(message.content) as { status: string });

/** The model's turns: two `remember` calls, then its reply (a recorded session, replayed locally). */
const modelTurns = [
  openAIToolCall("remember", {
    content: "I prefer answers in metric units.",
    memoryType: "preference",
    source: "user",
  }),
  openAIToolCall("remember", {
    content: "The production database was migrated to MongoDB last week.",
    memoryType: "fact",
    source: "ai_synthesis",
  }),
  openAIChatCompletion("Noted your preference for metric units."),
];

export const main = async (database = "memory://") => {
  const gate = await createMemoryGate({ database });
  const provider = await startProviderServer();
  provider.enqueue("openai.chat", ...modelTurns);
  try {
    const userId = "example-user";
    const result = await generateText({
      model: createOpenAICompatible({ name: "local", baseURL: provider.openAIBaseUrl }).chatModel("any"),
      system: "Remember what the user tells you about themselves with the remember tool.",
      prompt: "Please use metric units from now on. Also, didn't we move production to MongoDB?",
      tools: { remember: rememberTool(gate, userId) },
      stopWhen: stepCountIs(4),
    });
    const outcomes = result.steps.flatMap((step) =>
      step.toolResults.map((toolResult) => ({
        content: (toolResult.input as Remember).content,
        ...(toolResult.output as { status: string; reason: string }),
      })),
    );
    const stored = await gate.search(userId, "metric units");
    return {
      reply: result.text,
      outcomes,
      stored: stored.map((hit) => hit.memory.content),
      pendingReview: (await gate.pending(userId)).map((item) => item.content),
      modelRequests: provider.requests.length,
      /** What the model was told about its writes (the tool results in its last request). */
      toolResultsSentToModel: toolResultsOf(provider.requests.at(-1)?.body),
    };
  } finally {
    await provider.close();
    await gate.close();
  }
};

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await main(process.argv[2]), null, 2));
}
