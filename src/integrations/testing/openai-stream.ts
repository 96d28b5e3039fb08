import type { ReplayResponse } from "../../testing/index.js";

/** An OpenAI chat-completions stream (server-sent events) delivering `chunks` as content deltas. */
export const openAIChatStream = (chunks: readonly string[]): ReplayResponse => {
  const base = {
    id: "chatcmpl-stream-recorded",
    object: "chat.completion.chunk",
    created: 1732233600,
    model: "m",
  };
  const events = [
    ...chunks.map((content, index) => ({
      ...base,
      choices: [
        { index: 0, delta: index === 0 ? { role: "assistant", content } : { content }, finish_reason: null },
      ],
    })),
    {
      ...base,
      choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
      usage: { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 },
    },
  ];
  return {
    headers: { "content-type": "text/event-stream" },
    body: `${events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join("")}data: [DONE]\n\n`,
  };
};
