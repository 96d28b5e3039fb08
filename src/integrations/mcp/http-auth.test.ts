import { request as httpRequest } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, keyHolder, migrateServerTables, revokeApiKeys } from "../../server/keys/api-keys.js";
import { runEffect } from "../../server/run-effect.js";
import { openSqlClient } from "../../storage/open.js";
import type { SqlClientService } from "../../storage/sql-client.js";
import { callForStructured } from "../testing/mcp-client.js";
import { openMcpDependencies } from "./dependencies.js";
import { type McpHttpServer, startMcpHttpServer } from "./http.js";

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "probe", version: "0" } },
});

/** A raw POST with the headers given verbatim (fetch would not let a test choose `Host`). */
const post = (url: string, headers: Record<string, string>, body = initialize) =>
  new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
      },
      (response) => {
        let text = "";
        response.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on("end", () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
        );
      },
    );
    request.on("error", reject);
    request.end(body);
  });

const connect = async (url: string, key: string) => {
  const client = new Client({ name: "veracity-auth-test", version: "0.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return client;
};

let sql: SqlClientService;
let dependencies: ReturnType<typeof openMcpDependencies>;
let server: McpHttpServer;
const keys = { agent: "", reviewer: "", bob: "", revoked: "" };

beforeAll(async () => {
  sql = await runEffect(openSqlClient("memory://"));
  await runEffect(migrateServerTables(sql));
  keys.agent = (await runEffect(createApiKey(sql, "alice", "agent", "agent"))).key;
  keys.reviewer = (await runEffect(createApiKey(sql, "alice", "laptop", "reviewer"))).key;
  keys.bob = (await runEffect(createApiKey(sql, "bob", "agent", "agent"))).key;
  keys.revoked = (await runEffect(createApiKey(sql, "mallory", "", "reviewer"))).key;
  await runEffect(revokeApiKeys(sql, "mallory"));
  dependencies = openMcpDependencies({ memorySql: sql, env: {} });
  server = await startMcpHttpServer(dependencies, { authenticate: keyHolder(sql) });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await dependencies?.close();
  await runEffect(Effect.ignore(sql.close));
});

const port = () => new URL(server.url).port;

describe("MCP over HTTP: Host and Origin (DNS rebinding)", () => {
  it.each([
    ["a rebound name", () => `evil.example:${port()}`],
    ["a loopback name on another port", () => `127.0.0.1:${Number(port()) + 1}`],
    ["the machine's LAN name", () => `192.168.1.20:${port()}`],
  ])("refuses %s in Host with 403, before looking at the key", async (_case, host) => {
    const answer = await post(server.url, { host: host(), authorization: `Bearer ${keys.reviewer}` });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: expect.stringMatching(/Host/) } });
  });

  it.each(["localhost", "127.0.0.1", "[::1]"])("serves Host %s with the port", async (name) => {
    const answer = await post(server.url, {
      host: `${name}:${port()}`,
      authorization: `Bearer ${keys.reviewer}`,
    });
    expect(answer.status).toBe(200);
  });

  it.each(["https://evil.example", "null", "http://localhost:1"])(
    "refuses a browser Origin %s with 403",
    async (origin) => {
      const answer = await post(server.url, { origin, authorization: `Bearer ${keys.reviewer}` });
      expect(answer.status).toBe(403);
      expect(JSON.parse(answer.body)).toMatchObject({ error: { message: expect.stringMatching(/Origin/) } });
    },
  );

  it("serves a page of its own origin", async () => {
    const answer = await post(server.url, {
      origin: `http://localhost:${port()}`,
      authorization: `Bearer ${keys.reviewer}`,
    });
    expect(answer.status).toBe(200);
  });

  it("answers only the names and origins it is given when they are configured", async () => {
    const proxied = await startMcpHttpServer(dependencies, {
      authenticate: keyHolder(sql),
      allowedHosts: ["mcp.example.com"],
      allowedOrigins: ["https://app.example.com"],
    });
    try {
      const auth = { authorization: `Bearer ${keys.reviewer}` };
      expect((await post(proxied.url, { ...auth, host: "mcp.example.com" })).status).toBe(200);
      expect(
        (await post(proxied.url, { ...auth, host: "mcp.example.com", origin: "https://app.example.com" }))
          .status,
      ).toBe(200);
      expect((await post(proxied.url, auth)).status).toBe(403);
      expect(
        (await post(proxied.url, { ...auth, host: "mcp.example.com", origin: "https://x.example" })).status,
      ).toBe(403);
    } finally {
      await proxied.close();
    }
  });
});

describe("MCP over HTTP: API keys", () => {
  it.each([
    // Headers are built when the test runs: the keys are minted in beforeAll.
    ["no key", (): Record<string, string> => ({}), /Authorization: Bearer/],
    ["a key nobody minted", () => ({ authorization: "Bearer vk_not-a-real-key" }), /unknown or revoked/],
    ["a revoked key", () => ({ authorization: `Bearer ${keys.revoked}` }), /unknown or revoked/],
    [
      "a key in the wrong scheme",
      () => ({ authorization: `Basic ${keys.reviewer}` }),
      /Authorization: Bearer/,
    ],
  ])("answers %s with 401", async (_case, headers, message) => {
    const answer = await post(server.url, headers());
    expect(answer.status).toBe(401);
    expect(answer.headers["www-authenticate"]).toMatch(/^Bearer/);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { message: expect.stringMatching(message) } });
  });

  it("refuses to start with neither an authenticator nor the insecure opt-in", async () => {
    await expect(startMcpHttpServer(dependencies)).rejects.toThrow(/authenticate/);
  });

  it("a reviewer key's memory from the user is stored; the key's user is the owner", async () => {
    const client = await connect(server.url, keys.reviewer);
    try {
      const stored = await callForStructured(client, "ingest_memory", {
        content: "I prefer answers in metric units.",
        memoryType: "preference",
        source: "user",
      });
      expect(stored).toMatchObject({ isError: false, structured: { status: "stored" } });
      const found = await callForStructured(client, "search_memory", { query: "metric units" });
      expect(found.structured).toMatchObject({ hits: [{ memory: { userId: "alice" } }] });
    } finally {
      await client.close();
    }
  });

  it("an agent key's memory that names the user as its source gets the agent's tier and waits for review", async () => {
    const client = await connect(server.url, keys.agent);
    try {
      const answer = await callForStructured(client, "ingest_memory", {
        content: "Our staging database runs PostgreSQL 16.",
        memoryType: "fact",
        source: "user",
      });
      expect(answer).toMatchObject({ isError: false, structured: { status: "queued" } });
      const queueId = (answer.structured as { pending?: { queueId?: string } }).pending?.queueId;
      expect(queueId).toBeDefined();
      const item = await (await dependencies.memory()).getPending(String(queueId), "alice");
      expect(item).toMatchObject({ source: "agent", evidence: { metadata: { claimedSource: "user" } } });
    } finally {
      await client.close();
    }
  });

  it("an agent key acts for its own user only, and finds no review tool to call", async () => {
    const client = await connect(server.url, keys.bob);
    try {
      const asAlice = await callForStructured(client, "search_memory", { userId: "alice", query: "metric" });
      expect(asAlice).toMatchObject({ isError: true, structured: { error: { code: "FORBIDDEN_USER" } } });
      const own = await callForStructured(client, "search_memory", { query: "metric units" });
      expect(own.structured).toMatchObject({ hits: [] });
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).filter((name) => /approve|reject|review/.test(name))).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("one user's calculator results are not evidence for another user's numbers", async () => {
    const text = "The gross margin was 71.43%.";
    const sources = ["Revenue was 7.00 million and costs were 2.00 million."];
    const alice = await connect(server.url, keys.agent);
    const bob = await connect(server.url, keys.bob);
    try {
      await callForStructured(alice, "calculate", { expression: "(7.00 - 2.00) / 7.00 * 100" });
      expect((await callForStructured(alice, "validate_numbers", { text, sources })).structured.passed).toBe(
        true,
      );
      expect((await callForStructured(bob, "validate_numbers", { text, sources })).structured.passed).toBe(
        false,
      );
    } finally {
      await alice.close();
      await bob.close();
    }
  });
});
