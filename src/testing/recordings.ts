import type { ReplayResponse } from "./provider-server.js";

/**
 * Provider responses in the wire format of the OpenAI chat-completions and embeddings APIs and the
 * Anthropic messages API (the shapes of recorded production responses, with ids and content replaced).
 */

const usage = { prompt_tokens: 42, completion_tokens: 17, total_tokens: 59 };

export const openAIChatCompletion = (content: string): ReplayResponse => ({
  body: {
    id: "chatcmpl-AVKq1x2Y3z4recorded",
    object: "chat.completion",
    created: 1732233600,
    model: "gpt-4o-mini-2024-07-18",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, refusal: null },
        logprobs: null,
        finish_reason: "stop",
      },
    ],
    usage,
    system_fingerprint: "fp_0ba0d124f1",
  },
});

export const openAIToolCall = (name: string, input: object): ReplayResponse => ({
  body: {
    id: "chatcmpl-AVKq9toolrecorded",
    object: "chat.completion",
    created: 1732233601,
    model: "gpt-4o-mini-2024-07-18",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "call_Qx8Lrecorded",
              type: "function",
              function: { name, arguments: JSON.stringify(input) },
            },
          ],
          refusal: null,
        },
        logprobs: null,
        finish_reason: "tool_calls",
      },
    ],
    usage,
    system_fingerprint: "fp_0ba0d124f1",
  },
});

export const openAIEmbeddings = (vectors: readonly (readonly number[])[]): ReplayResponse => ({
  body: {
    object: "list",
    data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
    model: "text-embedding-3-small",
    usage: { prompt_tokens: 8 * vectors.length, total_tokens: 8 * vectors.length },
  },
});

export const openAIError = (
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): ReplayResponse => ({
  status,
  headers,
  body: {
    error: {
      message,
      type: status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error",
      param: null,
      code: status === 429 ? "rate_limit_exceeded" : null,
    },
  },
});

export const anthropicMessage = (text: string): ReplayResponse => ({
  body: {
    id: "msg_01XFDUDYJgAACzvnptvVrecorded",
    type: "message",
    role: "assistant",
    model: "claude-3-5-haiku-20241022",
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 38, output_tokens: 21 },
  },
});

export const anthropicToolUse = (name: string, input: object): ReplayResponse => ({
  body: {
    id: "msg_01Aq9w938a90dw8qrecorded",
    type: "message",
    role: "assistant",
    model: "claude-3-5-haiku-20241022",
    content: [{ type: "tool_use", id: "toolu_01A09q90qw90lq917recorded", name, input }],
    stop_reason: "tool_use",
    stop_sequence: null,
    usage: { input_tokens: 55, output_tokens: 33 },
  },
});

export const anthropicError = (
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): ReplayResponse => ({
  status,
  headers,
  body: {
    type: "error",
    error: {
      type: status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error",
      message,
    },
  },
});

/** A 200 whose body is not JSON. */
export const malformedBody = (): ReplayResponse => ({
  body: '{"id":"chatcmpl-broken","choices":[{"index":0,"mess',
});

/** Headers and half a body, then nothing. */
export const stalled = (reply: ReplayResponse): ReplayResponse => ({ ...reply, stall: true });
