import { afterEach, describe, expect, it } from "vitest";
import { type ProviderServer, startProviderServer } from "./provider-server.js";
import { openAIChatCompletion } from "./recordings.js";

let server: ProviderServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: object) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("startProviderServer", () => {
  it("listens on 127.0.0.1, serves queued responses in order, then the fallback, and records requests", async () => {
    server = await startProviderServer({ respond: () => openAIChatCompletion("fallback") });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    server.enqueue("openai.chat", openAIChatCompletion("first"));
    const first = (await (await post(`${server.openAIBaseUrl}/chat/completions`, { n: 1 })).json()) as {
      choices: { message: { content: string } }[];
    };
    const second = (await (
      await post(`${server.openAIBaseUrl}/chat/completions`, { n: 2 })
    ).json()) as typeof first;
    expect([first.choices[0]?.message.content, second.choices[0]?.message.content]).toEqual([
      "first",
      "fallback",
    ]);
    expect(server.requests.map((request) => request.body)).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("answers an unknown route with 404 and an empty queue without fallback with 404", async () => {
    server = await startProviderServer();
    expect((await post(`${server.url}/v1/unknown`, {})).status).toBe(404);
    expect((await post(`${server.anthropicBaseUrl}/messages`, {})).status).toBe(404);
  });

  it("adds its configured latency to every call", async () => {
    server = await startProviderServer({ latencyMs: 150, respond: () => openAIChatCompletion("slow") });
    const started = Date.now();
    await post(`${server.openAIBaseUrl}/chat/completions`, {});
    // timing holds under load: a lower bound (the configured latency was added).
    expect(Date.now() - started).toBeGreaterThanOrEqual(145);
  });
});
