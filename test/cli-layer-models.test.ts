import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeArgsToRun } from "../src/facade/worker-pool/current-build.js";
import {
  type ChatRequestBody,
  factCheckAnswer,
  openAIChatCompletion,
  type ProviderServer,
  startProviderServer,
} from "../src/testing/index.js";

const repoRoot = resolve(import.meta.dirname, "..");
const run = promisify(execFile);

let server: ProviderServer;
beforeAll(async () => {
  server = await startProviderServer({
    respond: (request) =>
      openAIChatCompletion(factCheckAnswer(request.body as ChatRequestBody, "supported", "in the report")),
  });
});
afterAll(() => server.close());

describe("per-layer model choice (VERACITY_MODEL_<LAYER>)", () => {
  it("sends each model-backed layer's calls to the model it names, the others to the shared model", async () => {
    await run(
      process.execPath,
      [
        ...nodeArgsToRun(join(repoRoot, "src/cli/main.ts")),
        "check",
        "examples/answer.md",
        "--source",
        "examples/source.md",
        "--layers",
        "fact-decomposition,nli",
        "--risk",
        "high",
        "--format",
        "json",
      ],
      {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? "",
          OPENAI_API_KEY: "sk-cli-test",
          OPENAI_BASE_URL: server.openAIBaseUrl,
          VERACITY_MODEL: "openai:gpt-4o-mini",
          VERACITY_MODEL_NLI: "openai:gpt-4.1",
        },
        timeout: 120_000,
      },
    ).catch((error: { code?: number }) => {
      // Exit 1 (findings) is an answer; anything else is a failure of the run.
      if (error.code !== 1) throw error;
    });
    const calls = server.requests.map((request) => request.body as ChatRequestBody);
    const modelsFor = (schema: string) =>
      new Set(
        calls.filter((body) => body.response_format?.json_schema?.name === schema).map((body) => body.model),
      );
    expect(modelsFor("nli")).toEqual(new Set(["gpt-4.1"]));
    expect(modelsFor("atomic_facts")).toEqual(new Set(["gpt-4o-mini"]));
  }, 120_000);
});
