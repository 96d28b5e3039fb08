import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliIn } from "../src/cli/testing.js";
import { openMcpDependencies } from "../src/integrations/mcp/dependencies.js";
import { startMcpHttpServer } from "../src/integrations/mcp/http.js";
import { callForStructured } from "../src/integrations/testing/mcp-client.js";
import { startTestServer, type TestServer } from "../src/server/testing/test-server.js";

/**
 * One configuration, three surfaces: the CLI, the HTTP server and the MCP server are given the same settings
 * file and the same repository, and each must reach the same verdict with the same findings for the same
 * answer. The configuration is chosen so that it changes the outcome from the defaults (strict mode turns an
 * unverifiable answer into a failure), and the repository is chosen so that a citation of its ADRs is
 * checked (one cited ADR exists, one does not): a surface that skipped either would disagree.
 */
const source =
  "The review queue stores memories in PostgreSQL. The gate approves a memory automatically only when its evidence is complete.";

const answers = [
  {
    name: "cites one ADR that exists and one that does not",
    text: "The review queue stores memories in PostgreSQL (ADR-0001). The gate approves a memory automatically only when its evidence is complete (ADR-0042).",
    sources: [source],
  },
  {
    name: "has nothing to be checked against",
    text: "The gate approves every memory within an hour.",
    sources: [],
  },
  {
    name: "contradicts its source",
    text: "The review queue stores memories in MongoDB (ADR-0001).",
    sources: [source],
  },
] as const;

interface Seen {
  readonly verdict: string;
  readonly passed: boolean;
  readonly claims: readonly {
    readonly text: string;
    readonly verdict: string;
    readonly codes: readonly string[];
  }[];
  readonly layers: readonly string[];
}

interface ResultJson {
  verdict: string;
  passed: boolean;
  claims: readonly { text: string; verdict: string; issues?: readonly { code: string }[] }[];
  layersRun: readonly { layer: string }[];
}

/** What a user acts on: the verdict, every claim's verdict and issue codes, and which layers judged. */
const seen = (result: ResultJson): Seen => ({
  verdict: result.verdict,
  passed: result.passed,
  claims: result.claims.map((claim) => ({
    text: claim.text,
    verdict: claim.verdict,
    codes: (claim.issues ?? []).map((issue) => issue.code).sort(),
  })),
  layers: result.layersRun.map((layer) => layer.layer).sort(),
});

let dir: string;
let settingsFile: string;
let server: TestServer;
let key: string;
let mcp: { client: Client; close: () => Promise<void> };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "veracity-one-config-"));
  await mkdir(join(dir, "docs", "adr"), { recursive: true });
  await writeFile(
    join(dir, "docs", "adr", "0001-store-memories-in-postgresql.md"),
    "# 1. Store memories in PostgreSQL\n\nThe review queue stores memories in PostgreSQL.\n",
  );
  settingsFile = join(dir, "veracity.json");
  await writeFile(settingsFile, JSON.stringify({ strict: true }));
  server = await startTestServer({}, { config: settingsFile, repositoryDir: dir, verifyWorkers: 0 });
  key = await server.createApiKey("alice");
  const dependencies = openMcpDependencies({
    repositoryDir: dir,
    verifier: { config: settingsFile },
    env: {},
  });
  const http = await startMcpHttpServer(dependencies, { insecureNoAuthentication: true });
  const client = new Client({ name: "veracity-test", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(http.url)));
  mcp = {
    client,
    close: async () => {
      await client.close();
      await http.close();
      await dependencies.close();
    },
  };
}, 180_000);

afterAll(async () => {
  await server?.close();
  await mcp?.close();
});

describe("one configuration gives one behaviour on every surface", () => {
  it.each(answers)("an answer that $name", async (answer) => {
    await writeFile(join(dir, "answer.md"), answer.text);
    await writeFile(join(dir, "source.md"), source);
    const sourceArgs = answer.sources.length > 0 ? ["--source", "source.md"] : [];
    const cli = await runCliIn(
      ["check", "answer.md", ...sourceArgs, "--config", "veracity.json", "--repo", ".", "--format", "json"],
      dir,
    );
    expect(cli.stderr).toBe("");
    const fromCli = seen(JSON.parse(cli.stdout));

    const http = await server.call("POST", "/v1/verify", {
      key,
      body: { text: answer.text, sources: [...answer.sources] },
    });
    expect(http.status).toBe(200);
    const fromServer = seen(http.body);

    const { structured } = await callForStructured(mcp.client, "verify", {
      text: answer.text,
      ...(answer.sources.length > 0 ? { sources: [...answer.sources] } : {}),
    });
    const fromMcp = seen(structured as unknown as ResultJson);

    // `/v1/check` runs the offline layers in the server's worker threads: the file's settings reach them too.
    const checked = await server.call("POST", "/v1/check", {
      key,
      body: { text: answer.text, sources: [...answer.sources] },
    });
    expect(checked.status).toBe(200);
    expect(seen(checked.body).verdict).toBe("fail");

    expect(fromServer).toEqual(fromCli);
    expect(fromMcp).toEqual(fromCli);
    // Strict mode (from the file) and the ADR check (from the repository) reached every surface.
    expect(fromCli.layers).toContain("citations");
    expect(fromCli.verdict).toBe("fail");
  });

  it("the missing ADR is found on every surface", async () => {
    const answer = answers[0];
    const { structured } = await callForStructured(mcp.client, "verify", {
      text: answer.text,
      sources: [...answer.sources],
    });
    const codes = seen(structured as unknown as ResultJson).claims.flatMap((claim) => claim.codes);
    expect(codes).toContain("CITATION_NOT_FOUND");
  });
});
