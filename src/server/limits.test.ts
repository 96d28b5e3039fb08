import { afterEach, describe, expect, it } from "vitest";
import type { Verifier } from "../facade/create-verifier.js";
import type { VerificationResult } from "../model/result.js";
import { startTestServer, type TestServer } from "./testing/test-server.js";

const started: TestServer[] = [];
afterEach(async () => {
  for (const server of started.splice(0)) await server.close(1_000);
});

const start = async (...args: Parameters<typeof startTestServer>) => {
  const server = await startTestServer(...args);
  started.push(server);
  return server;
};

const emptyResult: VerificationResult = {
  verdict: "unverified",
  passed: false,
  coverage: 0,
  overallConfidence: 0,
  riskLevel: "low",
  layersRun: [],
  mitigations: [],
  totalLatencyMs: 0,
  costIncurred: 0,
  claims: [],
  skippedLayers: [],
  reasons: ["fake"],
};

/** A checker that answers after `delayMs`; `entered` resolves when the first request reaches it. */
const slowChecker = (delayMs: number) => {
  let signalEntered: () => void = () => undefined;
  const entered = new Promise<void>((resolve) => {
    signalEntered = resolve;
  });
  const checker: Verifier = {
    verify: async () => {
      signalEntered();
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return emptyResult;
    },
    runLayer: () => Promise.reject(new Error("unused")),
    assessRisk: () => Promise.resolve("low"),
    subscribe: () => Promise.resolve(() => undefined),
    close: () => Promise.resolve(),
  };
  return { checker, entered };
};

const check = { text: "a", sources: ["a"] };

describe("per-key rate limit", () => {
  it("answers 429 with retry-after past the limit, per key, counted in the database", async () => {
    const server = await start({ rateLimit: { requests: 3, windowMs: 60_000 } });
    const first = await server.createApiKey("carol");
    const second = await server.createApiKey("dave");
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1)
      statuses.push(
        (await server.call("POST", "/v1/calculate", { key: first, body: { expression: "1+1" } })).status,
      );
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await server.call("POST", "/v1/calculate", { key: first, body: { expression: "1+1" } });
    expect(refused.body.code).toBe("rate-limited");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    const other = await server.call("POST", "/v1/calculate", { key: second, body: { expression: "1+1" } });
    expect(other.status).toBe(200);
  }, 60_000);
});

describe("request timeout", () => {
  it("answers 503 request-timeout when the handler takes longer than allowed", async () => {
    const { checker } = slowChecker(3_000);
    const server = await start({ requestTimeoutMs: 200 }, { checker });
    const key = await server.createApiKey("erin");
    const started = performance.now();
    const response = await server.call("POST", "/v1/check", { key, body: check });
    expect(response.status).toBe(503);
    expect(response.body.code).toBe("request-timeout");
    expect(performance.now() - started).toBeLessThan(2_500);
  }, 60_000);
});

describe("graceful shutdown", () => {
  it("finishes the request in flight, then refuses new connections", async () => {
    const { checker, entered } = slowChecker(500);
    const server = await start({}, { checker });
    const key = await server.createApiKey("frank");
    const inFlight = server.call("POST", "/v1/check", { key, body: check });
    await entered;
    const closing = server.close(5_000);
    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.reasons).toEqual(["fake"]);
    await closing;
    started.splice(started.indexOf(server), 1);
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
  }, 60_000);
});
