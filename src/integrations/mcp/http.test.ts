import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../cli/command.js";
import { mcpCommand } from "../../cli/commands/mcp.js";
import { callForStructured } from "../testing/mcp-client.js";
import { openMcpDependencies } from "./dependencies.js";
import { type McpHttpServer, startMcpHttpServer } from "./http.js";

const dependencies = openMcpDependencies({ userId: "alice", env: {} });
let server: McpHttpServer;
beforeAll(async () => {
  server = await startMcpHttpServer(dependencies, { maxBodyBytes: 1024, insecureNoAuthentication: true });
});
afterAll(async () => {
  await server.close();
  await dependencies.close();
});

const post = (url: string, body: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body,
  });

describe("the MCP HTTP endpoint", () => {
  it.each([
    [
      "a body over the limit",
      () => post(server.url, JSON.stringify({ padding: "x".repeat(2048) })),
      413,
      -32700,
    ],
    ["a body that is not JSON", () => post(server.url, "{not json"), 400, -32700],
    ["a GET", () => fetch(server.url), 405, -32000],
    ["another path", () => post(server.url.replace("/mcp", "/other"), "{}"), 404, -32601],
  ] as const)("answers %s with a JSON-RPC error", async (_case, send, status, code) => {
    const response = await send();
    expect(response.status).toBe(status);
    expect(await response.json()).toMatchObject({ jsonrpc: "2.0", error: { code } });
  });
});

describe("the MCP HTTP endpoint without keys (insecureNoAuthentication)", () => {
  it("treats every caller as an agent: a memory naming the user as its source waits for review", async () => {
    const client = new Client({ name: "veracity-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const answer = await callForStructured(client, "ingest_memory", {
        content: "I prefer answers in metric units.",
        memoryType: "preference",
        source: "user",
      });
      expect(answer).toMatchObject({ isError: false, structured: { status: "queued" } });
    } finally {
      await client.close();
    }
  });
});

describe("veracity mcp arguments", () => {
  const io = {
    stdout: () => {},
    stderr: () => {},
    readStdin: async () => "",
    isTTY: false,
    cwd: process.cwd(),
    env: {},
  };
  it.each([
    [["--port", "4000"]],
    [["--allowed-host", "example.com"]],
    [["--http", "--port", "zero"]],
    [["--http", "--user", "alice"]],
    [["--http", "--insecure-no-auth"]],
    [["--http", "--memory", "memory://"]],
    [["--http", "--allowed-origin", "example.com"]],
    [["--http", "--allowed-host", "http://example.com/"]],
    [["--unknown"]],
    [["extra"]],
    [["--warm-up-ms", "-1"]],
    [["--warm-up-ms", "soon"]],
    [["--warm-up-ms", ""]],
    [["--warm-up-ms", "600001"]],
    [["--http", "--warm-up-ms", "1.5"]],
    [["--verify-workers", "-1"]],
    [["--verify-workers", "two"]],
    [["--http", "--verify-workers", "65"]],
    [["--timeout-ms", "99"]],
    [["--http", "--timeout-ms", "600001"]],
    [["--timeout-ms", "soon"]],
  ])("refuses %j as a usage error", async (argv) => {
    await expect(mcpCommand.run(argv, io)).rejects.toBeInstanceOf(UsageError);
  });

  it.each([["99"], ["600001"]])("names --timeout-ms's whole range when refusing %s", async (value) => {
    await expect(mcpCommand.run(["--timeout-ms", value], io)).rejects.toThrow(
      "--timeout-ms must be a whole number from 100 to 600000",
    );
  });
});
