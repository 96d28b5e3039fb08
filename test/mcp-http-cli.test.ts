import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeArgsToRun } from "../src/facade/worker-pool/current-build.js";
import { callForStructured } from "../src/integrations/testing/mcp-client.js";
import { freePort } from "../src/testing/free-port.js";
import { runVeracity as runVeracityProcess } from "../src/testing/serve-process.js";

const repoRoot = resolve(import.meta.dirname, "..");
const cliSource = join(repoRoot, "src/cli/main.ts");

/** `veracity <args>` (the build when current, else the sources), in its own process, with its stdout and stderr piped. */
const spawnVeracity = (...args: string[]): ChildProcess =>
  spawn(process.execPath, [...nodeArgsToRun(cliSource), ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, DATABASE_URL: undefined, VERACITY_DB: undefined },
  });

/** Runs a command to its end: its exit code and what it printed. */
const runVeracity = (...args: string[]) =>
  runVeracityProcess(args, { DATABASE_URL: undefined, VERACITY_DB: undefined });

/** A raw POST whose `Host` (and, when given, the address it comes from) the test chooses (fetch would not let it). */
const post = (url: string, headers: Record<string, string>, localAddress?: string) =>
  new Promise<number>((done, fail) => {
    const request = httpRequest(
      url,
      {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        ...(localAddress === undefined ? {} : { localAddress }),
      },
      (response) => {
        response.resume();
        response.on("end", () => done(response.statusCode ?? 0));
      },
    );
    request.on("error", fail);
    request.end("{}");
  });

describe("veracity mcp --http, as a user starts it", () => {
  let child: ChildProcess;
  let exited: Promise<number | null>;
  let url: string;
  let database: string;
  let agentKey: string;
  let output = "";

  beforeAll(async () => {
    database = await mkdtemp(join(tmpdir(), "veracity-mcp-http-"));
    // The key is minted as for the HTTP API, on the database the MCP server then reads.
    const minted = await runVeracity(
      "serve",
      "keys",
      "create",
      "--db",
      database,
      "--user",
      "alice",
      "--agent",
    );
    expect(minted.code).toBe(0);
    agentKey = minted.stdout.trim();
    const port = await freePort();
    child = spawnVeracity(
      "mcp",
      "--http",
      "--db",
      database,
      "--port",
      String(port),
      "--allowed-host",
      `127.0.0.1:${port}`,
      "--allowed-host",
      "mcp.example.com",
      "--warm-up-ms",
      "300",
      "--verify-workers",
      "2",
      "--max-connections",
      "12",
      "--max-connections-per-address",
      "3",
    );
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

  afterAll(async () => {
    if (child.exitCode === null) child.kill("SIGKILL");
    await rm(database, { recursive: true, force: true });
  });

  it("serves the tools to an MCP client holding an agent key, for the key's user and with the agent's trust", async () => {
    const client = new Client({ name: "veracity-cli-test", version: "0.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { authorization: `Bearer ${agentKey}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("validate_numbers");
      // Verified in the server's worker threads: a supported figure passes, a changed one fails.
      const sources = ["Net sales of the Cloud division rose to $412.5 million in 2024, the company said."];
      const [supported, changed] = await Promise.all(
        ["$412.5 million", "$512.5 million"].map((figure) =>
          callForStructured(client, "verify", {
            text: `Net sales of the Cloud division rose to ${figure} in 2024.`,
            sources,
          }),
        ),
      );
      expect(supported).toMatchObject({ isError: false, structured: { verdict: "pass" } });
      expect(changed).toMatchObject({ isError: false, structured: { verdict: "fail" } });
      const derived = await callForStructured(client, "calculate", { expression: "(330 - 300) / 300 * 100" });
      expect(derived).toMatchObject({ isError: false, structured: { result: "10" } });
      const bad = await callForStructured(client, "validate_numbers", { text: "It is 331 metres tall." });
      expect(bad).toMatchObject({ isError: true, structured: { error: { code: "INVALID_INPUT" } } });
      // An agent saying "the user told me" does not make it so: the memory waits for a person's review.
      const claimed = await callForStructured(client, "ingest_memory", {
        content: "I prefer answers in metric units.",
        memoryType: "preference",
        source: "user",
      });
      expect(claimed).toMatchObject({ isError: false, structured: { status: "queued" } });
      const theirs = await callForStructured(client, "search_memory", { userId: "bob", query: "metric" });
      expect(theirs).toMatchObject({ isError: true, structured: { error: { code: "FORBIDDEN_USER" } } });
    } finally {
      await client.close();
    }
  }, 60_000);

  it("warmed the verification and the memory gate up on its database before it listened", () => {
    const lines = output.split("\n");
    const warmed = lines.findIndex((line) => line.startsWith("veracity mcp warmed up: "));
    expect(warmed).toBeGreaterThanOrEqual(0);
    expect(warmed).toBeLessThan(lines.findIndex((line) => line.includes("listening on")));
    // Both parts ran: the keys' database holds the memories, so it outlives the process.
    expect(lines[warmed]).toMatch(
      /^veracity mcp warmed up: [1-9]\d* verifications in \d+ ms on 2 workers, [1-9]\d* memory checks in \d+ ms$/,
    );
  });

  it("answers 401 without a key, 403 to a Host it was not told to serve, and serves one it was", async () => {
    expect(await post(url, {})).toBe(401);
    expect(await post(url, { host: "rebound.example:80" })).toBe(403);
    expect(await post(url, { host: "mcp.example.com" })).toBe(401);
    expect(await post(url, { origin: "https://evil.example" })).toBe(403);
  });

  it("closes a connection past --max-connections-per-address from one address; another address is answered", async () => {
    const { hostname, port } = new URL(url);
    // From addresses no other test uses, so the MCP client's own connections count for none of them.
    const opened: Socket[] = [];
    const open = (localAddress: string) =>
      new Promise<Socket>((done) => {
        const socket = connect({ host: hostname, port: Number(port), localAddress }, () => done(socket));
        socket.on("error", () => undefined);
        opened.push(socket);
      });
    try {
      // Three from each of two addresses: at least half of --max-connections 12 are open, so the cap binds.
      for (let held = 0; held < 3; held += 1) {
        await open("127.0.0.3");
        await open("127.0.0.5");
      }
      const fourth = await open("127.0.0.3");
      const closedUnanswered = await new Promise<string>((done) => {
        let received = "";
        fourth.on("data", (chunk) => {
          received += String(chunk);
        });
        fourth.on("close", () => done(received));
        fourth.write(`POST /mcp HTTP/1.1\r\nhost: ${hostname}:${port}\r\ncontent-length: 2\r\n\r\n{}`);
      });
      expect(closedUnanswered).toBe("");
      expect(await post(url, {}, "127.0.0.4")).toBe(401);
    } finally {
      for (const socket of opened) socket.destroy();
    }
  });

  it("refuses a --max-connections-per-address that is not a positive whole number before opening anything", async () => {
    const refused = await runVeracity("mcp", "--http", "--max-connections-per-address", "0");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--max-connections-per-address must be a positive whole number/);
  }, 60_000);

  it("refuses --http --user without --insecure-no-auth (the user comes from the key)", async () => {
    const refused = await runVeracity("mcp", "--http", "--user", "alice");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--insecure-no-auth/);
  }, 60_000);

  it("stops on SIGTERM with exit code 0", async () => {
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  }, 60_000);
});
