import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { nodeArgsToRun } from "../src/facade/worker-pool/current-build.js";
import {
  type ChatRequestBody,
  factCheckAnswer,
  openAIChatCompletion,
  type ProviderServer,
  startProviderServer,
} from "../src/testing/index.js";

const repoRoot = resolve(import.meta.dirname, "..");
const cliSource = join(repoRoot, "src/cli/main.ts");
const run = promisify(execFile);

/** A model that splits each numbered claim into one fact and contradicts every fact. */
const skeptic = (body: ChatRequestBody): string => factCheckAnswer(body, "contradicted", "not in the report");

/** `veracity check` as a user runs it, in its own process, with the given environment. */
const check = (args: readonly string[], env: Record<string, string>) =>
  run(process.execPath, [...nodeArgsToRun(cliSource), "check", ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? "", ...env },
    timeout: 120_000,
  }).then(
    (done) => ({ code: 0, stdout: done.stdout, stderr: done.stderr }),
    (error: { code?: number; stdout?: string; stderr?: string }) => ({
      code: error.code ?? -1,
      stdout: error.stdout ?? "",
      stderr: error.stderr ?? "",
    }),
  );

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer({
    respond: (request) => openAIChatCompletion(skeptic(request.body as ChatRequestBody)),
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

describe("veracity check --model", () => {
  it("runs the model layers through the configured provider, with the key from the environment", async () => {
    const result = await check(
      ["examples/answer.md", "--model", "openai:gpt-4o-mini", "--risk", "medium", "--format", "json"],
      { OPENAI_API_KEY: "sk-cli-test", OPENAI_BASE_URL: server.openAIBaseUrl },
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(1);
    const verification = JSON.parse(result.stdout) as {
      passed: boolean;
      layersRun: { layer: string; passed: boolean }[];
      skippedLayers: { layer: string; reason: string }[];
    };
    expect(verification.passed).toBe(false);
    expect(verification.layersRun).toContainEqual(
      expect.objectContaining({ layer: "fact-decomposition", passed: false }),
    );
    // Semantic entropy needs an embedding model, and says what to set.
    expect(verification.skippedLayers).toContainEqual({
      layer: "semantic-entropy",
      reason: expect.stringContaining("VERACITY_EMBEDDING_MODEL"),
    });
    const sent = server.requests.map((request) => request.body as ChatRequestBody);
    // Decomposition, the batched check, the model mitigator's rewrite of the failed text, then the rewrite
    // verified like the first answer (decomposition and check again).
    expect(sent.map((body) => body.response_format?.json_schema?.name)).toEqual([
      "atomic_facts",
      "fact_checks",
      undefined,
      "atomic_facts",
      "fact_checks",
    ]);
    expect(sent[2]?.messages.map((message) => message.content).join("\n")).toContain("failed verification");
    expect(sent.every((body) => body.model === "gpt-4o-mini")).toBe(true);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer sk-cli-test");
    expect(sent[0]?.messages.at(-1)?.content).toContain("Revenue reached $48.2 million");
  });

  it("names the missing key instead of running without the model", async () => {
    const result = await check(["examples/answer.md", "--model", "openai:gpt-4o-mini"], {
      OPENAI_BASE_URL: server.openAIBaseUrl,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("OPENAI_API_KEY");
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(server.requests).toHaveLength(0);
  });
});
