import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CliIO } from "../src/cli/command.js";
import { runCli } from "../src/cli/run-cli.js";
import { createVerifier } from "../src/facade/create-verifier.js";
import { openMcpDependencies } from "../src/integrations/mcp/dependencies.js";
import { startMcpHttpServer } from "../src/integrations/mcp/http.js";
import { callForStructured } from "../src/integrations/testing/mcp-client.js";
import { startTestServer, type TestServer } from "../src/server/testing/test-server.js";

/**
 * The three ways an answer goes wrong, and the verdict a user meets for each on every surface: an answer that
 * states the opposite of its source fails with a contradicted claim; a sourced answer about something else
 * fails with unsupported claims; an answer with no evidence to check against is unverified, never passed.
 */
const source =
  "The city council approved the new library budget in March 2024. Construction starts in the autumn, and the library is expected to open in 2026.";

const cases = [
  {
    name: "states the opposite of its source",
    text: "The city council rejected the new library budget in March 2024.",
    sources: [source],
    verdict: "fail",
    claimVerdict: "contradicted",
    exitCode: 1,
  },
  {
    name: "is sourced but about something else",
    text: "Penguins migrate across the Antarctic ice every winter to find food.",
    sources: [source],
    verdict: "fail",
    claimVerdict: "unsupported",
    exitCode: 1,
  },
  {
    name: "has no evidence to be checked against",
    text: "The library is expected to open in 2026.",
    sources: [],
    verdict: "unverified",
    claimVerdict: "unverifiable",
    exitCode: 3,
  },
] as const;

interface Observed {
  readonly verdict: string;
  readonly passed: boolean;
  readonly claimVerdicts: readonly string[];
}

const observed = (result: { verdict: string; passed: boolean; claims: readonly { verdict: string }[] }) => ({
  verdict: result.verdict,
  passed: result.passed,
  claimVerdicts: result.claims.map((claim) => claim.verdict),
});

const expectCase = (seen: Observed, expected: (typeof cases)[number]) => {
  expect(seen.verdict).toBe(expected.verdict);
  expect(seen.passed).toBe(false);
  expect(seen.claimVerdicts).toContain(expected.claimVerdict);
};

describe("the library", () => {
  it.each(cases)("an answer that $name", async (testCase) => {
    const verifier = createVerifier();
    try {
      expectCase(
        observed(await verifier.verify({ text: testCase.text, sources: [...testCase.sources] })),
        testCase,
      );
    } finally {
      await verifier.close();
    }
  });

  it("passes an answer its source supports", async () => {
    const verifier = createVerifier();
    const result = await verifier.verify({
      text: "The city council approved the library budget in March 2024, and the library should open in 2026.",
      sources: [source],
    });
    await verifier.close();
    expect(result).toMatchObject({ verdict: "pass", passed: true, coverage: 1 });
  });
});

describe("the CLI", () => {
  const run = async (argv: string[], cwd: string) => {
    let stdout = "";
    const io: CliIO = {
      stdout: (text) => {
        stdout += text;
      },
      stderr: () => {},
      readStdin: async () => "",
      isTTY: false,
      cwd,
      env: {},
    };
    return { code: await runCli(argv, io), stdout };
  };

  it.each(cases)("an answer that $name: verdict and exit code $exitCode", async (testCase) => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-verdicts-"));
    await writeFile(join(dir, "answer.md"), testCase.text);
    await writeFile(join(dir, "source.md"), source);
    const sourceArgs = testCase.sources.length > 0 ? ["--source", "source.md"] : [];
    const { code, stdout } = await run(["check", "answer.md", ...sourceArgs, "--format", "json"], dir);
    expect(code).toBe(testCase.exitCode);
    expectCase(observed(JSON.parse(stdout)), testCase);
  });

  it("--strict turns an unverified answer into a failure (exit 1)", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-verdicts-"));
    await writeFile(join(dir, "answer.md"), "The library is expected to open in 2026.");
    const { code, stdout } = await run(["check", "answer.md", "--strict", "--format", "json"], dir);
    expect(code).toBe(1);
    expect(JSON.parse(stdout).verdict).toBe("fail");
  });
});

describe("the HTTP API", () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    server = await startTestServer({});
    key = await server.createApiKey("alice");
  }, 180_000);
  afterAll(async () => {
    await server?.close();
  });

  it.each(cases)("POST /v1/verify: an answer that $name", async (testCase) => {
    const response = await server.call("POST", "/v1/verify", {
      key,
      body: { text: testCase.text, sources: [...testCase.sources] },
    });
    expect(response.status).toBe(200);
    expectCase(observed(response.body), testCase);
  });
});

describe("MCP", () => {
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const dependencies = openMcpDependencies({ repositoryDir: resolve(import.meta.dirname, "..") });
    const server = await startMcpHttpServer(dependencies, { insecureNoAuthentication: true });
    client = new Client({ name: "veracity-test", version: "0.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    close = async () => {
      await client.close();
      await server.close();
      await dependencies.close();
    };
  }, 60_000);
  afterAll(async () => {
    await close?.();
  });

  it.each(cases)("the verify tool: an answer that $name", async (testCase) => {
    const { structured } = await callForStructured(client, "verify", {
      text: testCase.text,
      ...(testCase.sources.length > 0 ? { sources: [...testCase.sources] } : {}),
    });
    expectCase(observed(structured as never), testCase);
  });
});
