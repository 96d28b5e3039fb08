import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { segmentClaims } from "../../text/claims.js";
import { makeCitationsLayer } from "./layer.js";

describe("citations layer with ADR, URL and issue verifiers configured", () => {
  let decisions: string;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    decisions = await mkdtemp(path.join(tmpdir(), "veracity-adr-"));
    await writeFile(path.join(decisions, "ADR-003-pixeltable.md"), "# ADR 3\n");
    server = createServer((request, response) => {
      if (request.url === "/docs" || request.url === "/repos/o/r/issues/12")
        response.writeHead(200).end("ok");
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await rm(decisions, { recursive: true, force: true });
  });

  const layer = () =>
    makeCitationsLayer({
      adr: { directory: decisions },
      url: { allowHosts: ["127.0.0.1"], timeoutMs: 2000 },
      issues: { endpoint: `${base}/repos/o/r` },
    });
  const codes = async (text: string) => {
    const result = await Effect.runPromise(layer().run({ text, claims: segmentClaims(text), evidence: [] }));
    return (result.claims ?? []).flatMap((claim) => claim.issues.map((issue) => issue.code));
  };

  it.each([
    ["Per ADR-003, we store memories in Pixeltable.", []],
    ["Per ADR-009, we store memories in Pixeltable.", ["CITATION_NOT_FOUND"]],
    ["The guide is at BASE/docs and the fix in #12.", []],
    ["The guide is at BASE/gone and the fix in GH-13.", ["CITATION_NOT_FOUND", "CITATION_NOT_FOUND"]],
    ["Fixed in 3f2a9c1d, see ADR-003.", ["CITATION_ERROR"]],
  ])("%s", async (template, expected) => {
    expect(await codes(template.replace("BASE", base))).toEqual(expected);
  });
});
