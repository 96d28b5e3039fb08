import { existsSync, readdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutTimings } from "../../facade/worker-pool/testing/without-timings.js";
import { makeTestRepository, type TestRepository } from "../../testing/git-repository.js";
import { callTool } from "./call-tool.js";
import { openMcpDependencies } from "./dependencies.js";
import { mcpTools } from "./tools.js";

type Dependencies = ReturnType<typeof openMcpDependencies>;

let repository: TestRepository;
beforeAll(async () => {
  repository = await makeTestRepository({ "docs/adr/0001-storage.md": "# 1. Storage\nPostgreSQL.\n" });
});
afterAll(async () => {
  await rm(repository.directory, { recursive: true, force: true });
});

describe("MCP tools verifying in worker threads", () => {
  it("warms each worker, and answers every verifying tool as this thread does, the repository's citations included", async () => {
    const pooled = openMcpDependencies({ repositoryDir: repository.directory, verifyWorkers: 2, env: {} });
    const inThread = openMcpDependencies({ repositoryDir: repository.directory, env: {} });
    try {
      const report = await pooled.warmUp({ maxMs: 300 });
      expect(report.verification?.workers).toBe(2);
      expect(report.verification?.verifications).toBeGreaterThanOrEqual(2);
      const cited =
        `The storage decision is ADR-001 and ADR-009, made in commit ${repository.commit.slice(0, 10)}; ` +
        "its fix followed in commit deadbeef12.";
      const grounded = {
        text: "Net sales rose to $412.5 million in 2024.",
        sources: ["Net sales rose to $412.5 million in 2024, the company said."],
      };
      const changedFigure = "Net sales rose to $512.5 million in 2024.";
      const calls: ((dependencies: Dependencies) => Promise<unknown>)[] = [
        (dependencies) => dependencies.verifier.verify({ text: cited }),
        (dependencies) => dependencies.verifier.runLayer("citations", cited),
        (dependencies) => dependencies.verifier.verify(grounded),
        (dependencies) =>
          dependencies.verifier.runLayer("grounding", grounded.text, undefined, grounded.sources),
        (dependencies) => dependencies.verifier.assessRisk(cited),
        (dependencies) =>
          callTool(
            mcpTools,
            "validate_numbers",
            { text: changedFigure, sources: grounded.sources },
            dependencies,
          ),
      ];
      // With workers, `validate_numbers` goes to the pool as well; in this thread it runs here.
      expect(pooled.validateNumbers).toBeDefined();
      expect(inThread.validateNumbers).toBeUndefined();
      for (const call of calls)
        expect(withoutTimings(await call(pooled))).toEqual(withoutTimings(await call(inThread)));
      const numbers = await callTool(
        mcpTools,
        "validate_numbers",
        { text: changedFigure, sources: grounded.sources },
        pooled,
      );
      expect(numbers.structuredContent).toMatchObject({ passed: false });
      // The worker checked the citations against the repository: a commit and a record that do not exist fail.
      const result = await pooled.verifier.verify({ text: cited });
      expect(result.verdict).toBe("fail");
      const checks = result.layersRun.find((layer) => layer.layer === "citations")?.details?.checks;
      expect(checks).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: "commit", status: "VERIFIED" }),
          expect.objectContaining({ kind: "commit", value: "deadbeef12", status: "NOT_FOUND" }),
          expect.objectContaining({ kind: "adr", value: "1", status: "VERIFIED" }),
          expect.objectContaining({ kind: "adr", value: "9", status: "NOT_FOUND" }),
        ]),
      );
    } finally {
      await Promise.all([pooled.close(), inThread.close()]);
    }
  }, 60_000);

  it.runIf(existsSync("/proc/self/task"))(
    "stops the workers its warm-up started when it closes, though no call came",
    async () => {
      const threads = () => readdirSync("/proc/self/task").length;
      const before = threads();
      const dependencies = openMcpDependencies({
        repositoryDir: repository.directory,
        verifyWorkers: 2,
        env: {},
      });
      const report = await dependencies.warmUp({ maxMs: 100 });
      expect(report.verification?.workers).toBe(2);
      expect(threads()).toBeGreaterThanOrEqual(before + 2);
      await dependencies.close();
      // A worker's thread is gone once its termination has settled; a pool left open would keep both.
      expect(threads()).toBeLessThanOrEqual(before);
    },
    60_000,
  );

  it("answers a call past its deadline with a VerificationTimeoutError, never a pass", async () => {
    const dependencies = openMcpDependencies({
      repositoryDir: repository.directory,
      verifyWorkers: 1,
      callTimeoutMs: 5,
      env: {},
    });
    try {
      // About 800,000 characters of sources (below the large-call lane's 1,000,000): far more than 5 ms of work
      // on any machine.
      const passage = (index: number) =>
        `Net sales of division ${index} rose to $${index}.5 million in ${1990 + (index % 30)}, the company said. `;
      const sources = Array.from({ length: 4 }, (_, source) =>
        Array.from({ length: 2_400 }, (_, index) => passage(source * 2_400 + index)).join(""),
      );
      const answer = await callTool(
        mcpTools,
        "verify",
        { text: "Net sales of division 12 rose to $12.5 million in 2002.", sources },
        dependencies,
      );
      expect(answer.isError).toBe(true);
      expect(answer.structuredContent).toBeUndefined();
      const { error } = JSON.parse(answer.content[0]?.text ?? "{}") as { error?: { code?: string } };
      expect(error?.code).toBe("VerificationTimeoutError");
    } finally {
      await dependencies.close();
    }
  }, 60_000);

  it("keeps a verifier with a model in this thread, whatever the workers asked for", async () => {
    const dependencies = openMcpDependencies({
      repositoryDir: repository.directory,
      verifyWorkers: 2,
      env: { VERACITY_MODEL: "openai:gpt-4o-mini", OPENAI_API_KEY: "sk-test" },
    });
    try {
      const report = await dependencies.warmUp({ maxMs: 100 });
      expect(report.stoppedBy).toBeUndefined();
      expect(report.verification?.verifications).toBeGreaterThanOrEqual(1);
      expect(report.verification?.workers).toBeUndefined();
    } finally {
      await dependencies.close();
    }
  }, 60_000);
});
