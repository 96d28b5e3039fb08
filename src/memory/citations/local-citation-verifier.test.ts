import { rm } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTestRepository } from "../../testing/git-repository.js";
import { detectCitations } from "./detect-citations.js";
import { makeLocalCitationVerifier } from "./local-citation-verifier.js";

let repo: string;
let commit: string;
let server: Server;
let base: string;

beforeAll(async () => {
  ({ directory: repo, commit } = await makeTestRepository(
    { "docs/adrs/ADR-003-storage.md": "# ADR-003\nWe use PostgreSQL for storage.\n" },
    "Fix the race in review approval",
  ));
  server = createServer((request, response) => {
    response.statusCode = request.url === "/api" ? 200 : 404;
    response.end(request.url === "/api" ? "API reference: JSON over REST" : "missing");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(repo, { recursive: true, force: true });
});

const verify = (text: string, options: { fetchUrls?: boolean } = {}) => {
  const verifier = makeLocalCitationVerifier({
    repositoryDir: repo,
    url: { allowHosts: ["127.0.0.1"] },
    ...options,
  });
  const [citation] = detectCitations(text);
  if (citation === undefined) throw new Error(`no citation in ${text}`);
  return Effect.runPromiseExit(verifier.verify(citation));
};

describe("makeLocalCitationVerifier", () => {
  it("verifies an existing ADR and returns its text", async () => {
    const exit = await verify("Per ADR-003, we use PostgreSQL");
    expect(exit).toMatchObject({
      _tag: "Success",
      value: { verified: true, content: expect.stringContaining("PostgreSQL") },
    });
  });

  it("does not verify an ADR that was never written", async () => {
    expect(await verify("Per ADR-999, we use magic")).toMatchObject({
      _tag: "Success",
      value: { verified: false },
    });
  });

  it("verifies a commit of the repository (abbreviated) with its message", async () => {
    const exit = await verify(`Fixed in commit ${commit.slice(0, 10)}`);
    expect(exit).toMatchObject({
      _tag: "Success",
      value: { verified: true, content: expect.stringContaining("Fix the race") },
    });
  });

  it("does not verify an unknown commit", async () => {
    expect(await verify("Fixed in commit 0a1b2c3d4e")).toMatchObject({
      _tag: "Success",
      value: { verified: false },
    });
  });

  it("checks URLs over HTTP only when enabled: 200 verifies, 404 does not", async () => {
    expect(await verify(`See ${base}/api`, { fetchUrls: true })).toMatchObject({
      value: { verified: true, reason: expect.stringContaining("HTTP 200") },
    });
    expect(await verify(`See ${base}/gone`, { fetchUrls: true })).toMatchObject({
      value: { verified: false, reason: "HTTP 404" },
    });
    expect(await verify(`See ${base}/api`)).toMatchObject({ _tag: "Failure" });
  });

  it("does not let a URL verifier reach loopback unless allowed", async () => {
    const verifier = makeLocalCitationVerifier({ repositoryDir: repo, fetchUrls: true });
    const [citation] = detectCitations(`See ${base}/api`);
    const exit = await Effect.runPromiseExit(verifier.verify(citation!));
    expect(exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "CitationCheckError" } } });
  });

  it("cannot verify an issue without a tracker: a typed failure, never a pass", async () => {
    expect(await verify("Tracked in #12")).toMatchObject({
      _tag: "Failure",
      cause: { error: { _tag: "CitationCheckError" } },
    });
  });
});
