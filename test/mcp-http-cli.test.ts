import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callForStructured } from "../src/integrations/testing/mcp-client.js";

const repoRoot = resolve(import.meta.dirname, "..");

/** A port nothing listens on right now (`--port` takes no 0). */
const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      probe.close(() => done(port));
    });
  });

/** `veracity mcp` from the sources, in its own process, with its stdout and stderr piped. */
const spawnMcp = (...args: string[]): ChildProcess =>
  spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", "mcp", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
  });

describe("veracity mcp --http, as a user starts it", () => {
  let child: ChildProcess;
  let exited: Promise<number | null>;
  let url: string;
  let output = "";

  beforeAll(async () => {
    const port = await freePort();
    child = spawnMcp("--http", "--user", "alice", "--port", String(port));
    exited = new Promise((done) => child.on("exit", (code) => done(code)));
    url = await new Promise<string>((done, fail) => {
      child.stderr?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(output);
        if (match?.[1]) done(match[1]);
      });
      void exited.then((code) => fail(new Error(`veracity mcp exited (${code}):\n${output}`)));
    });
  }, 120_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
  });

  it("serves the tools to an MCP client over streamable HTTP", async () => {
    const client = new Client({ name: "veracity-cli-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("validate_numbers");
      const derived = await callForStructured(client, "calculate", { expression: "(330 - 300) / 300 * 100" });
      expect(derived).toMatchObject({ isError: false, structured: { result: "10" } });
      const bad = await callForStructured(client, "validate_numbers", { text: "It is 331 metres tall." });
      expect(bad).toMatchObject({ isError: true, structured: { error: { code: "INVALID_INPUT" } } });
      // The memory tools act for the user the server was started for, and for nobody else.
      const stored = await callForStructured(client, "ingest_memory", {
        content: "I prefer answers in metric units.",
        memoryType: "preference",
        source: "user",
      });
      expect(stored).toMatchObject({ isError: false, structured: { status: "stored" } });
      const mine = await callForStructured(client, "search_memory", { query: "metric units" });
      expect(mine.structured).toMatchObject({ hits: [{ memory: { userId: "alice" } }] });
      const theirs = await callForStructured(client, "search_memory", { userId: "bob", query: "metric" });
      expect(theirs).toMatchObject({ isError: true, structured: { error: { code: "FORBIDDEN_USER" } } });
      const asBob = await callForStructured(client, "ingest_memory", {
        content: "Bob prefers imperial units.",
        memoryType: "preference",
        source: "user",
        userId: "bob",
      });
      expect(asBob).toMatchObject({ isError: true, structured: { error: { code: "FORBIDDEN_USER" } } });
    } finally {
      await client.close();
    }
  }, 60_000);

  it("refuses --http without --user (its clients are not authenticated)", async () => {
    const refused = spawnMcp("--http");
    let errors = "";
    refused.stderr?.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const code = await new Promise<number | null>((done) => refused.on("exit", done));
    expect(code).toBe(2);
    expect(errors).toMatch(/--http needs --user/);
  }, 60_000);

  it("stops on SIGTERM with exit code 0", async () => {
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});
