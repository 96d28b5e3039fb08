import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
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
const cliSource = join(repoRoot, "src/cli/main.ts");
const run = promisify(execFile);

/** `veracity <args>` as a user runs it, in its own process. */
const veracity = (args: readonly string[], env: Record<string, string> = {}) =>
  run(process.execPath, [...nodeArgsToRun(cliSource), ...args], {
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

const stored = "The Harbor Trust board approved the second container terminal in Gdynia in August 2021.";

let server: ProviderServer;
let dir: string;
beforeAll(async () => {
  // A model that cannot confirm any fact: only the fact memory can.
  server = await startProviderServer({
    respond: (request) =>
      openAIChatCompletion(
        factCheckAnswer(request.body as ChatRequestBody, "contradicted", "no such record"),
      ),
  });
  dir = await mkdtemp(join(tmpdir(), "veracity-fact-memory-"));
  const ingest = await veracity([
    "memory",
    "ingest",
    stored,
    "--user",
    "ana",
    "--source",
    "user",
    "--db",
    join(dir, "db"),
  ]);
  expect(ingest.code).toBe(0);
}, 120_000);
afterAll(() => server.close());

const checkFact = async (fact: string, user: string) => {
  await writeFile(join(dir, "answer.txt"), fact);
  const result = await veracity(
    [
      "check",
      join(dir, "answer.txt"),
      "--model",
      "openai:gpt-4o-mini",
      "--layers",
      "fact-decomposition",
      "--risk",
      "high",
      "--memory-db",
      join(dir, "db"),
      "--user",
      user,
      "--format",
      "json",
    ],
    { OPENAI_API_KEY: "sk-cli-test", OPENAI_BASE_URL: server.openAIBaseUrl },
  );
  expect(result.stderr).not.toMatch(/\n\s+at /);
  const verification = JSON.parse(result.stdout) as {
    passed: boolean;
    layersRun: { layer: string; details: { verifiedFromMemory: number } }[];
  };
  const layer = verification.layersRun.find((each) => each.layer === "fact-decomposition");
  return { code: result.code, passed: verification.passed, fromMemory: layer?.details.verifiedFromMemory };
};

describe("veracity check --memory-db --user: the fact memory of the store it is pointed at", () => {
  it("confirms a fact the user's memory store holds", async () => {
    expect(await checkFact(stored, "ana")).toEqual({ code: 0, passed: true, fromMemory: 1 });
  }, 120_000);

  it("does not confirm a near miss, nor another user's fact", async () => {
    const nearMiss = stored.replace("2021", "2012");
    expect(await checkFact(nearMiss, "ana")).toMatchObject({ code: 1, passed: false, fromMemory: 0 });
    expect(await checkFact(stored, "ben")).toMatchObject({ code: 1, passed: false, fromMemory: 0 });
  }, 120_000);

  it("refuses --memory-db without --user", async () => {
    const result = await veracity([
      "check",
      "examples/answer.md",
      "--source",
      "examples/source.md",
      "--memory-db",
      join(dir, "db"),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--memory-db and --user go together/);
  });
});
