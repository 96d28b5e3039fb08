import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEvidenceStore } from "../checks/citations/store/evidence-store.js";
import { chain, writeConstructedChain } from "../checks/citations/testing/constructed-chain.js";
import { findAdrDirectory } from "../checks/citations/verifiers/repository-citations.js";
import { openMcpDependencies } from "../integrations/mcp/dependencies.js";
import { type RunningServer, startServer } from "./start.js";
import { capturedLogger } from "./testing/test-server.js";

/** A loopback issue tracker in the GitHub API shape: issue 42 exists, every other number is 404. */
const startTracker = async () => {
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(request.url ?? "");
    const found = request.url === "/repos/acme/app/issues/42";
    response.writeHead(found ? 200 : 404, { "content-type": "application/json" });
    response.end(JSON.stringify(found ? { number: 42, title: "Move storage to PostgreSQL" } : {}));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/repos/acme/app`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

describe("citations on every surface: metrics, the issue tracker, one ADR folder", () => {
  let directory: string;
  let repository: string;
  let tracker: Awaited<ReturnType<typeof startTracker>>;
  let server: RunningServer;
  let key: string;
  const call = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) };
    } catch {
      return { status: response.status, body: text };
    }
  };

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), "veracity-citation-surfaces-"));
    // Decision records in docs/adr (not docs/adrs): every surface must find them.
    repository = path.join(directory, "repo");
    await mkdir(path.join(repository, "docs/adr"), { recursive: true });
    await writeFile(
      path.join(repository, "docs/adr/0007-postgres-storage.md"),
      "# 7. Storage\nWe use PostgreSQL for memory storage.\n",
    );
    await writeConstructedChain(path.join(directory, "export"));
    const evidence = path.join(directory, "evidence");
    await Effect.runPromise(
      Effect.scoped(
        Effect.acquireRelease(openEvidenceStore(evidence), (store) => Effect.ignore(store.close)).pipe(
          Effect.flatMap((store) => store.importEthereumEtl(path.join(directory, "export"))),
        ),
      ),
    );
    tracker = await startTracker();
    server = await startServer({
      port: 0,
      warmUpMs: 0,
      host: "127.0.0.1",
      database: "memory://",
      evidence,
      repositoryDir: repository,
      logger: capturedLogger().logger,
      verifyWorkers: 0,
      env: { VERACITY_ISSUES_URL: tracker.url },
    });
    key = await server.createApiKey("ana");
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await tracker?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("counts /v1/citations/verify in the citation metrics", async () => {
    const text = `[ADDR:${chain.a}] sent 2 ETH in [TX:${chain.payment}]. It moved again in [TX:0x${"9f".repeat(32)}].`;
    const verified = await call("POST", "/v1/citations/verify", { text });
    expect(verified.status).toBe(200);
    expect(verified.body.details).toMatchObject({ verified: 2, notFound: 1 });
    const metrics = await fetch(`${server.url}/metrics`).then((response) => response.text());
    expect(metrics).toMatch(/veracity_citations_total\{citation_type="transaction"\} 2/);
    expect(metrics).toMatch(/veracity_citations_verified_total\{citation_type="address"\} 1/);
    expect(metrics).toMatch(
      /veracity_citations_failed_total\{citation_type="transaction",failure_reason="[a-z_]+"\} 1/,
    );
  });

  it("checks issue citations in memory claims against the configured tracker", async () => {
    const existing = await call("POST", "/v1/memory/ingest", {
      content: "As tracked in #42, we use PostgreSQL for memory storage",
      memoryType: "decision",
      source: "user",
    });
    const missing = await call("POST", "/v1/memory/ingest", {
      content: "As tracked in #43, we use PostgreSQL for memory storage",
      memoryType: "decision",
      source: "user",
    });
    expect(tracker.requests).toEqual(
      expect.arrayContaining(["/repos/acme/app/issues/42", "/repos/acme/app/issues/43"]),
    );
    const failedChecks = (outcome: { result: { checksFailed: string[] } }) =>
      outcome.result.checksFailed.join("\n");
    // The tracker says #42 exists (only its relevance is left to review); #43 does not exist.
    expect(failedChecks(existing.body)).not.toMatch(/citation_unverified/);
    expect(failedChecks(existing.body)).toMatch(/citation_relevance_unchecked: #42/);
    expect(failedChecks(missing.body)).toMatch(/citation_unverified: #43 .*HTTP 404/);
  });

  it("finds decision records in docs/adr from the server, the CLI's layer and MCP alike", async () => {
    expect(findAdrDirectory(repository)).toBe(path.join(repository, "docs/adr"));
    const stored = await call("POST", "/v1/memory/ingest", {
      content: "Per ADR-007, we use PostgreSQL for memory storage",
      memoryType: "decision",
      source: "user",
    });
    expect(stored.status).toBe(201);
    const cited = await call("POST", "/v1/citations/verify", {
      text: "Per ADR-007 and ADR-008 we chose a store.",
    });
    expect(cited.body.details.checks).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: "adr", value: "7", status: "VERIFIED" }),
        expect.objectContaining({ kind: "adr", value: "8", status: "NOT_FOUND" }),
      ]),
    );

    const mcp = openMcpDependencies({ repositoryDir: repository, env: { VERACITY_ISSUES_URL: tracker.url } });
    try {
      const gate = await mcp.memory();
      const outcome = await gate.ingest({
        content: "Per ADR-007, we use PostgreSQL for memory storage",
        memoryType: "decision",
        source: "user",
        userId: "ana",
      });
      expect(outcome.status).toBe("stored");
    } finally {
      await mcp.close();
    }
  });
});
