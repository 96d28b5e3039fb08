import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { UsageError } from "../../cli/command.js";
import { mcpCommand } from "../../cli/commands/mcp.js";
import { openMcpDependencies } from "./dependencies.js";
import { type McpHttpServer, startMcpHttpServer } from "./http.js";

const dependencies = openMcpDependencies();
let server: McpHttpServer;
beforeAll(async () => {
  server = await startMcpHttpServer(dependencies, { maxBodyBytes: 1024 });
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

describe("veracity mcp arguments", () => {
  const io = {
    stdout: () => {},
    stderr: () => {},
    readStdin: async () => "",
    isTTY: false,
    cwd: process.cwd(),
    env: {},
  };
  it.each([[["--port", "4000"]], [["--http", "--port", "zero"]], [["--unknown"]], [["extra"]]])(
    "refuses %j as a usage error",
    async (argv) => {
      await expect(mcpCommand.run(argv, io)).rejects.toBeInstanceOf(UsageError);
    },
  );
});
