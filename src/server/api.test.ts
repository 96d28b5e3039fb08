import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServerApp } from "./app.js";
import type { ServerDeps } from "./deps.js";
import { startTestServer, type TestServer } from "./testing/test-server.js";
import { playgroundExample } from "./ui/playground-page.js";

let server: TestServer;
let alice: string;
let bob: string;

/** Every /v1 route the app serves ("POST /v1/review/{queueId}/approve"), read from the Hono router itself. */
const apiRoutes = [
  ...new Set(
    createServerApp({} as ServerDeps)
      .routes.filter((route) => route.method !== "ALL" && route.path.startsWith("/v1/"))
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`),
  ),
];

beforeAll(async () => {
  server = await startTestServer({ maxBodyBytes: 64 * 1024 });
  // An admin key: these tests read the server-wide audit log too (roles.test.ts covers each role).
  alice = await server.createApiKey("alice", "admin");
  bob = await server.createApiKey("bob");
}, 180_000);

afterAll(async () => {
  await server?.close();
});

/** Queues a claim for its owner's review (an uncited claim from a conversation). */
const queueClaim = async (key: string, content: string) => {
  const response = await server.call("POST", "/v1/memory/ingest", {
    key,
    body: { content, memoryType: "fact", source: "conversation" },
  });
  expect(response.status).toBe(202);
  return response.body.pending.queueId as string;
};

describe("authentication", () => {
  it.each([
    ["no key", undefined, "missing-credentials"],
    ["an unknown key", "vk_not-a-real-key-at-all", "invalid-credentials"],
    ["a value that is not a Veracity key", "hunter2", "invalid-credentials"],
  ])("refuses %s with 401 problem+json", async (_, key, code) => {
    const response = await server.call("POST", "/v1/check", {
      ...(key === undefined ? {} : { key }),
      body: { text: "x", sources: ["x"] },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(response.body).toMatchObject({ status: 401, code });
  });

  it.each(apiRoutes)("%s refuses a missing and a wrong key with 401 problem+json", async (route) => {
    const [method = "GET", template = ""] = route.split(" ");
    const path = template.replace("{queueId}", "00000000-0000-4000-8000-000000000000");
    const body = method === "POST" ? { rawBody: "{}" } : {};
    for (const key of [undefined, "vk_not-a-real-key-at-all"]) {
      const response = await server.call(method, path, { ...(key === undefined ? {} : { key }), ...body });
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      expect(response.body).toMatchObject({ status: 401, instance: path });
    }
  });

  it("accepts a minted key and answers as its user", async () => {
    const response = await server.call("GET", "/v1/review/pending", { key: alice });
    expect(response.status).toBe(200);
    expect(response.body.items).toEqual([]);
  });
});

describe("malformed requests", () => {
  it.each([
    ["malformed JSON", { rawBody: "{not json" }, 400, "malformed-json"],
    ["a body of the wrong type", { rawBody: "x", contentType: "text/plain" }, 415, "unsupported-media-type"],
    ["a missing required field", { body: { sources: ["a"] } }, 400, "invalid-body"],
    ["an unknown field", { body: { text: "a", sources: ["a"], userId: "mallory" } }, 400, "invalid-body"],
    [
      "a body over the size limit",
      { body: { text: "a", sources: ["x".repeat(70 * 1024)] } },
      413,
      "body-too-large",
    ],
  ])("answers %s with a problem", async (_, options, status, code) => {
    const response = await server.call("POST", "/v1/check", { key: alice, ...options });
    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ status, code, instance: "/v1/check" });
  });

  it.each(apiRoutes.filter((route) => route.startsWith("POST") && !route.endsWith("/approve")))(
    "%s answers malformed JSON with 400 and a body over the limit with 413, as problems",
    async (route) => {
      const path = route.slice("POST ".length).replace("{queueId}", "00000000-0000-4000-8000-000000000000");
      const malformed = await server.call("POST", path, { key: alice, rawBody: '{"text": "a",' });
      expect(malformed.status).toBe(400);
      expect(malformed.headers.get("content-type")).toBe("application/problem+json");
      expect(malformed.body).toMatchObject({ code: "malformed-json", instance: path });
      const oversized = await server.call("POST", path, {
        key: alice,
        body: { text: "a", padding: "x".repeat(70 * 1024) },
      });
      expect(oversized.status).toBe(413);
      expect(oversized.body).toMatchObject({ code: "body-too-large", instance: path });
    },
  );

  it("answers an unknown route with a 404 problem", async () => {
    const response = await server.call("GET", "/v1/nothing-here", { key: alice });
    expect(response.status).toBe(404);
    expect(response.body.code).toBe("not-found");
  });
});

describe("verification endpoints", () => {
  it("POST /v1/check finds the unsupported claim of the example", async () => {
    const response = await server.call("POST", "/v1/check", {
      key: alice,
      body: { text: playgroundExample.answer, sources: [playgroundExample.sources] },
    });
    expect(response.status).toBe(200);
    // An unsupported claim that the sources partly cover is a warning, not a failure.
    expect(response.body.verdict).not.toBe("pass");
    const verdicts = response.body.claims.map((claim: { verdict: string }) => claim.verdict);
    expect(verdicts[0]).toBe("supported");
    expect(verdicts).toContain("unsupported");
  });

  it("POST /v1/check leaves each layer's claim findings out of layersRun unless ?layerClaims=true", async () => {
    const body = { text: playgroundExample.answer, sources: [playgroundExample.sources] };
    const plain = await server.call("POST", "/v1/check", { key: alice, body });
    const detailed = await server.call("POST", "/v1/check?layerClaims=true", { key: alice, body });
    expect(plain.status).toBe(200);
    expect(detailed.status).toBe(200);
    for (const layer of plain.body.layersRun) expect(layer).not.toHaveProperty("claims");
    const grounding = detailed.body.layersRun.find((layer: { layer: string }) => layer.layer === "grounding");
    expect(grounding.claims.length).toBeGreaterThan(0);
    // The merged claims are the same either way.
    expect(plain.body.claims).toEqual(detailed.body.claims);
  });

  it("POST /v1/verify decodes a VerificationRequest and runs the configured layers", async () => {
    const response = await server.call("POST", "/v1/verify", {
      key: alice,
      body: {
        text: "The tower is in Paris.",
        sources: ["The tower is in Paris, France."],
        riskOverride: "low",
      },
    });
    expect(response.status).toBe(200);
    const names = response.body.layersRun.map((layer: { layer: string }) => layer.layer);
    expect(names).toContain("grounding");
    expect(new Set(names).size).toBe(names.length);
  });

  it("POST /v1/verify refuses a request that breaks the schema", async () => {
    const response = await server.call("POST", "/v1/verify", { key: alice, body: { text: 3 } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid-body");
  });

  it.each([
    ["0.1 + 0.2", 200, "0.3"],
    ["(1200 - 1000) / 1000 * 100", 200, "20"],
  ])("POST /v1/calculate evaluates %s exactly", async (expression, status, result) => {
    const response = await server.call("POST", "/v1/calculate", { key: alice, body: { expression } });
    expect(response.status).toBe(status);
    expect(response.body.result).toBe(result);
  });

  it("POST /v1/calculate refuses code with 422", async () => {
    const response = await server.call("POST", "/v1/calculate", {
      key: alice,
      body: { expression: "process.exit(1)" },
    });
    expect(response.status).toBe(422);
    expect(response.body.code).toBe("calculation-refused");
  });

  it("POST /v1/numbers/validate traces numbers to the sources", async () => {
    const response = await server.call("POST", "/v1/numbers/validate", {
      key: alice,
      body: { text: "Revenue was $1,200 in 2024.", sources: ["Revenue in 2024: $1,200."] },
    });
    expect(response.status).toBe(200);
    expect(JSON.stringify(response.body)).toContain("1200");
  });

  it("POST /v1/citations/verify without an evidence store is an error, never a pass", async () => {
    const response = await server.call("POST", "/v1/citations/verify", {
      key: alice,
      body: { text: "See transaction 0xabc." },
    });
    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("POST /v1/calibrate fits a Platt model to labelled scores", async () => {
    const samples = Array.from({ length: 200 }, (_, index) => {
      const score = (index % 100) / 100;
      return { score, supported: (index * 7919) % 100 < score * 100 };
    });
    const response = await server.call("POST", "/v1/calibrate", { key: alice, body: { samples } });
    expect(response.status).toBe(200);
    expect(response.body.model.a).toBeLessThan(0);
    expect(response.body.after.count).toBe(200);
  });

  it("POST /v1/calibrate refuses an empty sample with an input problem", async () => {
    const samples: never[] = [];
    const response = await server.call("POST", "/v1/calibrate", { key: alice, body: { samples } });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("invalid-input");
  });
});

describe("memory and review", () => {
  it("ingest stores, queues or blocks on behalf of the authenticated user", async () => {
    const blocked = await server.call("POST", "/v1/memory/ingest", {
      key: alice,
      body: { content: "I think maybe we deploy on Fridays", memoryType: "fact", source: "user" },
    });
    expect(blocked.status).toBe(422);
    expect(blocked.body.status).toBe("blocked");
    const queueId = await queueClaim(alice, "The billing service stores invoices in PostgreSQL 15");
    const item = await server.call("GET", `/v1/review/${queueId}`, { key: alice });
    expect(item.body.userId).toBe("alice");
  });

  it("a reviewer cannot see, approve or reject another user's item", async () => {
    const queueId = await queueClaim(alice, "The ingestion worker retries three times before giving up");
    for (const [method, path, body] of [
      ["GET", `/v1/review/${queueId}`, undefined],
      ["POST", `/v1/review/${queueId}/approve`, undefined],
      ["POST", `/v1/review/${queueId}/reject`, { reason: "not mine but I want it gone" }],
    ] as const) {
      const response = await server.call(method, path, { key: bob, ...(body ? { body } : {}) });
      expect(response.status).toBe(404);
      expect(response.body.code).toBe("review-item-not-found");
    }
    const stillThere = await server.call("GET", `/v1/review/${queueId}`, { key: alice });
    expect(stillThere.status).toBe(200);
  });

  it("the owner approves one item and rejects another with a reason; each is decided once", async () => {
    const approveId = await queueClaim(alice, "Nightly backups of the reporting database run at 02:00 UTC");
    const rejectId = await queueClaim(
      alice,
      "The cache layer evicts entries after ninety minutes of idleness",
    );
    const approved = await server.call("POST", `/v1/review/${approveId}/approve`, { key: alice });
    expect(approved.status).toBe(200);
    expect(approved.body.memory.content).toContain("Nightly backups");
    const noReason = await server.call("POST", `/v1/review/${rejectId}/reject`, {
      key: alice,
      body: { reason: " " },
    });
    expect(noReason.status).toBe(400);
    const rejected = await server.call("POST", `/v1/review/${rejectId}/reject`, {
      key: alice,
      body: { reason: "the cache timeout is sixty minutes" },
    });
    expect(rejected.status).toBe(200);
    const again = await server.call("POST", `/v1/review/${approveId}/approve`, { key: alice });
    expect(again.status).toBe(404);
    const pending = await server.call("GET", "/v1/review/pending", { key: alice });
    const ids = pending.body.items.map((item: { queueId: string }) => item.queueId);
    expect(ids).not.toContain(approveId);
    expect(ids).not.toContain(rejectId);

    const search = await server.call("POST", "/v1/memory/search", { key: alice, body: { query: "backups" } });
    expect(search.body.hits.map((hit: { memory: { id: string } }) => hit.memory.id)).toContain(
      approved.body.memory.id,
    );
    const bobSearch = await server.call("POST", "/v1/memory/search", {
      key: bob,
      body: { query: "backups" },
    });
    expect(bobSearch.body.hits).toEqual([]);

    const audit = await server.call("GET", "/v1/audit", { key: alice });
    const actions = audit.body.entries.map(
      (entry: { action: string; queueId?: string; reason?: string }) => entry,
    );
    expect(actions).toContainEqual(expect.objectContaining({ action: "approve", queueId: approveId }));
    expect(actions).toContainEqual(
      expect.objectContaining({
        action: "reject",
        queueId: rejectId,
        reason: "the cache timeout is sixty minutes",
      }),
    );
    const chain = await server.call("GET", "/v1/audit/verify", { key: alice });
    expect(chain.body.intact).toBe(true);
    expect(chain.body.checked).toBeGreaterThanOrEqual(2);
  });

  it("the reviewer is the authenticated user, never one named in the body", async () => {
    const approveId = await queueClaim(alice, "The export job writes Parquet files to the archive bucket");
    const rejectId = await queueClaim(alice, "The archive bucket keeps files for thirty days");
    const impersonating = await server.call("POST", `/v1/review/${rejectId}/reject`, {
      key: alice,
      body: { reason: "wrong retention", reviewer: "bob" },
    });
    expect(impersonating.status).toBe(400);
    expect(impersonating.body.code).toBe("invalid-body");
    const approved = await server.call("POST", `/v1/review/${approveId}/approve`, {
      key: alice,
      body: { reviewer: "bob", userId: "bob" },
    });
    expect(approved.status).toBe(200);
    const audit = await server.call("GET", "/v1/audit", { key: alice });
    const decision = audit.body.entries.find(
      (entry: { action: string; queueId?: string }) =>
        entry.action === "approve" && entry.queueId === approveId,
    );
    expect(decision).toMatchObject({ actor: "alice" });
    expect((await server.call("GET", "/v1/audit", { key: bob })).body.entries).not.toContainEqual(
      expect.objectContaining({ queueId: approveId }),
    );
  });

  it("GET /v1/review/pending refuses a limit out of range", async () => {
    const response = await server.call("GET", "/v1/review/pending?limit=100000", { key: alice });
    expect(response.status).toBe(400);
  });
});

describe("audit trail and per-result metrics", () => {
  it("appends every verification and ingestion decision to the hash chain and records per-layer metrics", async () => {
    const before = await server.call("GET", "/v1/audit/verify", { key: alice });
    const body = { text: playgroundExample.answer, sources: [playgroundExample.sources] };
    expect((await server.call("POST", "/v1/check", { key: alice, body })).status).toBe(200);
    const verified = await server.call("POST", "/v1/verify", {
      key: bob,
      body: { ...body, riskOverride: "low" },
    });
    expect(verified.status).toBe(200);
    await queueClaim(bob, "The nightly export runs at two in the morning");
    const after = await server.call("GET", "/v1/audit/verify", { key: alice });
    expect(after.body.intact).toBe(true);
    expect(after.body.checked).toBe(before.body.checked + 3);
    const metrics = await server.call("GET", "/metrics");
    expect(metrics.body).toMatch(/veracity_layer_latency_seconds_count\{layer="grounding"\} [1-9]/);
  });
});

describe("review UI sign-in", () => {
  const form = (key: string, origin: string) =>
    fetch(`${server.url}/ui/login`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin },
      body: new URLSearchParams({ key }).toString(),
    });

  it("keeps the key in an HttpOnly, SameSite=Strict cookie", async () => {
    const response = await form(alice, server.url);
    expect(response.status).toBe(303);
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).toMatch(/Path=\/ui/);
  });

  it("refuses a form posted from another origin (CSRF)", async () => {
    const response = await form(alice, "http://evil.example");
    expect(response.status).toBe(403);
    expect(response.headers.get("set-cookie")).toBeNull();
  });

  it("does not accept the API key's cookie on the /v1 API", async () => {
    const response = await fetch(`${server.url}/v1/review/pending`, {
      headers: { cookie: `veracity_key=${alice}` },
    });
    expect(response.status).toBe(401);
  });
});

describe("operations", () => {
  it.each([
    ["/healthz", 200, "ok"],
    ["/readyz", 200, "ready"],
  ])("%s answers without a key", async (path, status, state) => {
    const response = await server.call("GET", path);
    expect(response.status).toBe(status);
    expect(response.body.status).toBe(state);
  });

  it("/metrics serves Prometheus text with the HTTP and verification metrics", async () => {
    const response = await server.call("GET", "/metrics");
    expect(response.status).toBe(200);
    expect(response.body).toContain("veracity_http_requests_total");
    expect(response.body).toContain('route="/v1/check"');
    expect(response.body).toContain("veracity_verifications_total");
  });

  it("/openapi.json documents every /v1 route with schemas generated from the Schemas", async () => {
    const response = await server.call("GET", "/openapi.json");
    expect(response.body.openapi).toBe("3.1.0");
    for (const path of [
      "/v1/verify",
      "/v1/check",
      "/v1/calculate",
      "/v1/memory/ingest",
      "/v1/review/{queueId}/reject",
    ])
      expect(Object.keys(response.body.paths)).toContain(path);
    expect(response.body.components.schemas.VerificationRequest.required).toContain("text");
    expect(response.body.components.schemas.MemoryIngestRequest.properties).not.toHaveProperty("userId");
  });

  it("/openapi.json documents each /v1 route the app serves, and no route it does not serve", async () => {
    const response = await server.call("GET", "/openapi.json");
    const paths = response.body.paths as Record<string, Record<string, unknown>>;
    const documented = Object.entries(paths).flatMap(([path, operations]) =>
      path.startsWith("/v1/")
        ? Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`)
        : [],
    );
    // Known gap, reported to the server's owner: remove the entry once the route is documented.
    expect(apiRoutes.filter((route) => !documented.includes(route))).toEqual([]);
    expect(documented.filter((route) => !apiRoutes.includes(route))).toEqual([]);
    for (const [path, operations] of Object.entries(paths))
      for (const [method, operation] of Object.entries(operations) as [string, { requestBody?: unknown }][])
        if (method === "post" && !path.endsWith("/approve"))
          expect(operation.requestBody, `${method} ${path}`).toMatchObject({
            content: {
              "application/json": { schema: { $ref: expect.stringMatching(/^#\/components\/schemas\//) } },
            },
          });
  });

  it("never writes API keys or authorization headers to the logs", async () => {
    await server.call("GET", "/v1/review/pending", { key: alice });
    await server.call("GET", "/v1/review/pending", { key: "vk_wrong-key" });
    const logs = server.logLines.join("\n");
    expect(logs).toContain('"path":"/v1/review/pending"');
    expect(logs).not.toContain(alice);
    expect(logs).not.toContain(alice.slice(3, 20));
    expect(logs).not.toContain("vk_wrong-key");
    expect(logs.toLowerCase()).not.toContain("bearer");
  });
});
