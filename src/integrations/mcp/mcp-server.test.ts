import { execFileSync } from "node:child_process";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeArgsToRun } from "../../facade/worker-pool/current-build.js";
import { createApiKey, keyHolder, migrateServerTables } from "../../server/keys/api-keys.js";
import { runEffect } from "../../server/run-effect.js";
import { openSqlClient } from "../../storage/open.js";
import { callForStructured } from "../testing/mcp-client.js";
import { openMcpDependencies } from "./dependencies.js";
import { startMcpHttpServer } from "./http.js";
import { inputJsonSchema, mcpTools, outputJsonSchema } from "./tools.js";

const repoRoot = resolve(import.meta.dirname, "../../..");
const cliSource = join(repoRoot, "src/cli/main.ts");
const headCommit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim();
const source = "The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World's Fair in Paris.";

const toolNames = [
  "verify",
  "check_grounding",
  "validate_numbers",
  "calculate",
  "verify_citations",
  "ingest_memory",
  "search_memory",
];

type Connect = () => Promise<{ client: Client; close: () => Promise<void> }>;

const connectStdio: Connect = async () => {
  const client = new Client({ name: "veracity-test", version: "0.0.0" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgsToRun(cliSource), "mcp"],
    cwd: repoRoot,
    stderr: "pipe",
  });
  await client.connect(transport);
  return { client, close: () => client.close() };
};

/** The user the memory tests write for: over HTTP the one the key was minted for. */
const sessionUser = `user-${Math.random().toString(36).slice(2)}`;

/** Over HTTP as `veracity mcp --http` serves it: API keys and memories on one database, a person's key. */
const connectHttp: Connect = async () => {
  const sql = await runEffect(openSqlClient("memory://"));
  await runEffect(migrateServerTables(sql));
  const { key } = await runEffect(createApiKey(sql, sessionUser, "", "reviewer"));
  const dependencies = openMcpDependencies({ repositoryDir: repoRoot, memorySql: sql });
  const server = await startMcpHttpServer(dependencies, { authenticate: keyHolder(sql) });
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const client = new Client({ name: "veracity-test", version: "0.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { authorization: `Bearer ${key}` } },
    }),
  );
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
      await dependencies.close();
      await runEffect(Effect.ignore(sql.close));
    },
  };
};

describe.each([
  ["stdio", connectStdio],
  ["streamable HTTP", connectHttp],
] as const)("veracity mcp over %s", (_transport, connect) => {
  let session: Awaited<ReturnType<Connect>>;
  beforeAll(async () => {
    session = await connect();
  });
  afterAll(async () => {
    await session.close();
  });

  it("lists the seven tools with input schemas generated from our Schemas", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(toolNames);
    for (const tool of tools) {
      const ours = mcpTools.find((candidate) => candidate.name === tool.name);
      expect(ours).toBeDefined();
      if (ours) expect(tool.inputSchema).toEqual(inputJsonSchema(ours));
      if (ours) expect(tool.outputSchema).toEqual(outputJsonSchema(ours));
    }
  });

  it("lists schemas without Effect's internal titles and ids, and no $ref with siblings", async () => {
    const { tools } = await session.client.listTools();
    const text = JSON.stringify(tools);
    expect(text).not.toMatch(/"title":"(maxLength|minLength|maxItems|between)\(/);
    expect(text).not.toContain("/schemas/");
    const refsWithSiblings: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (typeof node === "object" && node !== null) {
        if ("$ref" in node && Object.keys(node).length > 1) refsWithSiblings.push(JSON.stringify(node));
        Object.values(node).forEach(walk);
      }
    };
    walk(tools);
    expect(refsWithSiblings).toEqual([]);
    const search = tools.find((tool) => tool.name === "search_memory");
    expect(search?.inputSchema.properties?.limit).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 100,
    });
  });

  it("answers a calculation that fails with isError and the calculator's message", async () => {
    const { isError, structured } = await callForStructured(session.client, "calculate", {
      expression: "1 / 0",
    });
    expect(isError).toBe(true);
    expect(structured).toMatchObject({
      error: { code: "CALCULATION_FAILED", message: expect.stringMatching(/division/) },
    });
  });

  it.each([
    ["verify", { text: "The Eiffel Tower is 330 metres tall.", sources: [source] }, { passed: true }],
    ["verify", { text: "The Eiffel Tower is 450 metres tall.", sources: [source] }, { passed: false }],
    [
      "check_grounding",
      { text: "It was completed in 1889.", sources: [source] },
      { layer: "grounding", passed: true },
    ],
    [
      "check_grounding",
      { text: "It was painted gold by the mayor of Lyon.", sources: [source] },
      { layer: "grounding", passed: false },
    ],
    ["validate_numbers", { text: "The tower is 330 metres tall.", sources: [source] }, { passed: true }],
    ["validate_numbers", { text: "The tower is 331 metres tall.", sources: [source] }, { passed: false }],
    [
      "calculate",
      { expression: "(0.50 - 0.45) / 0.45 * 100" },
      { result: "11.11111111111111111111111111111111111111" },
    ],
    [
      "verify_citations",
      { text: `The fix landed in commit ${headCommit}.` },
      { layer: "citations", passed: true },
    ],
    [
      "verify_citations",
      { text: "The fix landed in commit 0123456789abcdef0123456789abcdef01234567." },
      { layer: "citations", passed: false },
    ],
  ] as const)("calls %s", async (name, args, expected) => {
    const { isError, structured } = await callForStructured(session.client, name, args);
    expect(isError).toBe(false);
    expect(structured).toMatchObject(expected);
  });

  it("ingests a memory through the gate and finds it by search", async () => {
    const userId = sessionUser;
    const ingested = await callForStructured(session.client, "ingest_memory", {
      content: "I prefer answers in metric units.",
      memoryType: "preference",
      source: "user",
      userId,
    });
    expect(ingested.isError).toBe(false);
    expect(ingested.structured).toMatchObject({ status: "stored", result: { tier: "auto-approve" } });
    const found = await callForStructured(session.client, "search_memory", { userId, query: "metric units" });
    expect(found.structured).toMatchObject({
      hits: [{ memory: { content: "I prefer answers in metric units." } }],
    });
  });

  it.each([
    ["verify", { sources: [source] }],
    ["verify", { text: "x", sources: "not a list" }],
    ["calculate", { expression: "1+1", extra: true }],
    ["search_memory", { userId: "u", query: "q", limit: 1000 }],
    ["ingest_memory", { content: "x", memoryType: "rumour", source: "user", userId: "u" }],
  ] as const)("answers bad input to %s with a structured error", async (name, args) => {
    const { isError, structured } = await callForStructured(session.client, name, args);
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ error: { code: "INVALID_INPUT", message: expect.any(String) } });
  });

  it("answers an unknown tool with a structured error", async () => {
    const { isError, structured } = await callForStructured(session.client, "delete_everything", {});
    expect(isError).toBe(true);
    expect(structured).toMatchObject({ error: { code: "UNKNOWN_TOOL" } });
  });
});

describe("veracity mcp over stdio, warming up", () => {
  it("warms up once the client's handshake is done, reports it on stderr, and then answers", async () => {
    const client = new Client({ name: "veracity-test", version: "0.0.0" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...nodeArgsToRun(cliSource), "mcp", "--warm-up-ms", "300"],
      cwd: repoRoot,
      stderr: "pipe",
    });
    let stderr = "";
    const reported = new Promise<string>((resolve) => {
      transport.stderr?.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
        const line = /veracity mcp warmed up: [^\n]*\n/.exec(stderr);
        if (line) resolve(line[0]);
      });
    });
    await client.connect(transport);
    try {
      const line = await reported;
      // Verified made-up answers until its bound; no memory store was named, so the gate was not opened.
      expect(line).toMatch(/^veracity mcp warmed up: [1-9]\d* verifications in \d+ ms\n$/);
      const answer = await callForStructured(client, "verify", { text: source, sources: [source] });
      expect(answer).toMatchObject({ isError: false, structured: { passed: true } });
    } finally {
      await client.close();
    }
  });
});
