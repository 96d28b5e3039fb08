import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callTool } from "./call-tool.js";
import { openMcpDependencies, stoppedByToolCall } from "./dependencies.js";
import { mcpTools } from "./tools.js";

const repoRoot = resolve(import.meta.dirname, "../../..");
const request = {
  text: "The Eiffel Tower is 330 metres tall.",
  sources: ["The Eiffel Tower is 330 metres tall. It was completed in 1889."],
};
// Long enough that a warm-up reaching it would make the test time out: every warm-up here must stop early.
const longMs = 60_000;

let scratch: string;
beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), "veracity-mcp-warm-up-"));
});
afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("an MCP server's warm-up", () => {
  it("verifies made-up answers up to its bound, and leaves the memory store closed unless asked", async () => {
    const untouched = join(scratch, "untouched");
    const dependencies = openMcpDependencies({ repositoryDir: repoRoot, memoryDatabase: untouched });
    try {
      const report = await dependencies.warmUp({ maxMs: 200 });
      await expect(stat(untouched)).rejects.toThrow(/ENOENT/);
      expect(report.verification?.verifications).toBeGreaterThanOrEqual(1);
      expect(report.verification?.stoppedBy).toBeUndefined();
      expect(report.memory).toBeUndefined();
      expect(report.stoppedBy).toBeUndefined();
      // The tools' verifier answers as it would have without the warm-up.
      const result = await dependencies.verifier.verify(request);
      expect(result.passed).toBe(true);
    } finally {
      await dependencies.close();
    }
  });

  it.each([
    ["verify", (d: ReturnType<typeof openMcpDependencies>) => d.verifier.verify(request)],
    [
      "a layer run alone",
      (d: ReturnType<typeof openMcpDependencies>) =>
        d.verifier.runLayer("grounding", request.text, undefined, request.sources),
    ],
    ["the memory tools", (d: ReturnType<typeof openMcpDependencies>) => d.memory()],
    [
      "the calculator, which uses neither",
      (d: ReturnType<typeof openMcpDependencies>) =>
        callTool(mcpTools, "calculate", { expression: "(330 - 300) / 300 * 100" }, d),
    ],
  ])("ends at the first call of %s, which is answered", async (_name, call) => {
    const dependencies = openMcpDependencies({ repositoryDir: repoRoot });
    try {
      const warming = dependencies.warmUp({ maxMs: longMs, memory: true });
      expect(await call(dependencies)).toBeDefined();
      const report = await warming;
      expect(report.stoppedBy).toBe(stoppedByToolCall);
      // Stopped before the memory gate's part began.
      expect(report.memory).toBeUndefined();
      // Once a call has come, a later warm-up runs nothing.
      expect(await dependencies.warmUp({ maxMs: longMs })).toEqual({ stoppedBy: stoppedByToolCall });
    } finally {
      await dependencies.close();
    }
  });

  it("warms the memory gate up on the stored memories when asked, after the verification", async () => {
    const database = join(scratch, "memories");
    const first = openMcpDependencies({ repositoryDir: repoRoot, memoryDatabase: database });
    try {
      const gate = await first.memory();
      for (const content of ["We decided to ship on Tuesdays", "We decided that every service logs in JSON"])
        expect(
          (await gate.ingest({ content, source: "conversation", memoryType: "decision", userId: "owner" }))
            .status,
        ).toBe("stored");
    } finally {
      await first.close();
    }
    const dependencies = openMcpDependencies({ repositoryDir: repoRoot, memoryDatabase: database });
    try {
      const report = await dependencies.warmUp({ maxMs: 300, memory: true });
      expect(report.verification?.verifications).toBeGreaterThanOrEqual(1);
      expect(report.memory?.checks).toBeGreaterThanOrEqual(1);
      expect(report.memory?.sampled).toBe(2);
      expect(report.stoppedBy).toBeUndefined();
      // Read only: the store holds the same two memories.
      expect(
        (await (await dependencies.memory()).search("owner", "ship on Tuesdays"))[0]?.memory.content,
      ).toBe("We decided to ship on Tuesdays");
    } finally {
      await dependencies.close();
    }
  });

  it("ends when the server closes, before what it uses is closed", async () => {
    const dependencies = openMcpDependencies({ repositoryDir: repoRoot });
    const warming = dependencies.warmUp({ maxMs: longMs, memory: true });
    await dependencies.close();
    const report = await warming;
    expect(report.stoppedBy).toBe("the server is closing");
  });

  it("reports a verifier that cannot be built, whose error the tools' calls meet too", async () => {
    const missing = join(scratch, "no-such-settings.yaml");
    const dependencies = openMcpDependencies({ repositoryDir: repoRoot, verifier: { config: missing } });
    try {
      const report = await dependencies.warmUp({ maxMs: longMs });
      expect(report.verification).toBeUndefined();
      expect(report.stoppedBy).toContain("no-such-settings.yaml");
      await expect(dependencies.verifier.verify(request)).rejects.toThrow(/no-such-settings\.yaml/);
    } finally {
      await dependencies.close();
    }
  });

  it("reports a memory store that cannot be opened, after the verification's part", async () => {
    const notADirectory = join(scratch, "a-file");
    await writeFile(notADirectory, "not a database");
    const dependencies = openMcpDependencies({ repositoryDir: repoRoot, memoryDatabase: notADirectory });
    try {
      const report = await dependencies.warmUp({ maxMs: 100, memory: true });
      expect(report.verification?.verifications).toBeGreaterThanOrEqual(1);
      expect(report.memory).toBeUndefined();
      expect(report.stoppedBy).toBeDefined();
    } finally {
      await dependencies.close();
    }
  });
});
