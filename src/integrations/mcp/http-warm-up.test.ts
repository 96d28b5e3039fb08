import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { nodeArgsToRun } from "../../facade/worker-pool/current-build.js";
import { createApiKey, migrateServerTables } from "../../server/keys/api-keys.js";
import { runEffect } from "../../server/run-effect.js";
import { openSqlClient } from "../../storage/open.js";

const repoRoot = resolve(import.meta.dirname, "../../..");
const cli = join(repoRoot, "src/cli/main.ts");
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

/** A port nothing listens on right now. */
const freePort = () =>
  new Promise<number>((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => done(typeof address === "object" && address !== null ? address.port : 0));
    });
  });

describe("veracity mcp --http, warming up", () => {
  it("warms the verification and the memory gate up on its database before it listens", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-mcp-http-warm-up-"));
    try {
      const database = join(dir, "data");
      const sql = await runEffect(openSqlClient(database));
      await runEffect(migrateServerTables(sql));
      const { key } = await runEffect(createApiKey(sql, "sam", "", "reviewer"));
      await runEffect(sql.close);
      const port = await freePort();
      const child = spawn(
        process.execPath,
        [
          ...nodeArgsToRun(cli),
          "mcp",
          "--http",
          "--db",
          database,
          "--port",
          String(port),
          "--warm-up-ms",
          "300",
        ],
        { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env } },
      );
      children.push(child);
      const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
      let output = "";
      await new Promise<void>((listening, fail) => {
        child.stderr?.on("data", (chunk: Buffer) => {
          output += chunk.toString();
          if (/listening on http:\/\/127\.0\.0\.1:\d+/.test(output)) listening();
        });
        void exited.then((code) => fail(new Error(`mcp exited (${code}) before listening:\n${output}`)));
      });
      // The warm-up's report came first, and both parts ran: the keys' database holds the memories.
      const lines = output.split("\n");
      const warmed = lines.findIndex((line) => line.startsWith("veracity mcp warmed up: "));
      expect(warmed).toBeGreaterThanOrEqual(0);
      expect(warmed).toBeLessThan(lines.findIndex((line) => line.includes("listening on")));
      expect(lines[warmed]).toMatch(
        /^veracity mcp warmed up: [1-9]\d* verifications in \d+ ms, [1-9]\d* memory checks in \d+ ms$/,
      );
      // And it answers.
      const answer = await fetch(`http://127.0.0.1:${port}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
      expect(answer.status).toBe(200);
      expect(JSON.stringify(await answer.json())).toContain('"name":"verify"');
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
