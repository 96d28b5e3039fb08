import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ChatRequestBody,
  factCheckAnswer,
  openAIChatCompletion,
  type ProviderServer,
  startProviderServer,
} from "../testing/index.js";
import { type RunningServer, startServer } from "./start.js";
import { capturedLogger } from "./testing/test-server.js";

let provider: ProviderServer;
let server: RunningServer;

beforeAll(async () => {
  provider = await startProviderServer({
    respond: (request) =>
      openAIChatCompletion(
        factCheckAnswer(request.body as ChatRequestBody, "supported", "stated in the source"),
      ),
  });
  server = await startServer({
    port: 0,
    warmUpMs: 0,
    host: "127.0.0.1",
    database: "memory://",
    logger: capturedLogger().logger,
    model: "openai:gpt-4o-mini",
    env: { OPENAI_API_KEY: "sk-server-test", OPENAI_BASE_URL: provider.openAIBaseUrl },
  });
}, 180_000);

afterAll(async () => {
  await server?.close();
  await provider?.close();
});

const counter = (metrics: string, name: string, labels: string): number => {
  const line = metrics.split("\n").find((each) => each.startsWith(`${name}{${labels}}`));
  return line === undefined ? 0 : Number(line.split(" ").at(-1));
};

describe("model usage on /metrics", () => {
  it("counts the model calls and tokens /v1/verify spent, as the provider served them", async () => {
    const key = await server.createApiKey("alice");
    const response = await fetch(`${server.url}/v1/verify`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        text: "Water boils at 100 degrees Celsius at sea level.",
        sources: ["At sea level, water boils at 100 degrees Celsius."],
        riskOverride: "medium",
      }),
    });
    expect(response.status).toBe(200);
    const served = provider.requests.length;
    expect(served).toBeGreaterThan(0);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const calls = metrics
      .split("\n")
      .filter((line) => line.startsWith("veracity_model_calls_total{"))
      .reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
    expect(calls).toBe(served);
    expect(counter(metrics, "veracity_model_tokens_total", 'direction="input"')).toBeGreaterThan(0);
    // A second scrape adds nothing new: the counters take differences of the cumulative usage.
    const again = await (await fetch(`${server.url}/metrics`)).text();
    expect(counter(again, "veracity_model_tokens_total", 'direction="input"')).toBe(
      counter(metrics, "veracity_model_tokens_total", 'direction="input"'),
    );
  });
});
