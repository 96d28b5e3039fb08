import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { segmentClaims } from "../../text/claims.js";
import { customKindFromConfig } from "./custom-kind-config.js";
import { makeCitationsLayer } from "./layer.js";

describe("custom citation kinds from configuration", () => {
  let server: Server;
  let base: string;
  const requested: string[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      requested.push(request.url ?? "");
      response.writeHead(request.url === "/tickets/42" ? 200 : 404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each([
    ["Closed in TICKET-42.", []],
    ["Closed in TICKET-43.", ["CITATION_NOT_FOUND"]],
  ])("%s", async (text, expected) => {
    const ticket = customKindFromConfig({
      kind: "ticket",
      pattern: "\\bTICKET-(\\d{1,6})\\b",
      lookupUrl: `${base}/tickets/{value}`,
    });
    const result = await Effect.runPromise(
      makeCitationsLayer({ customKinds: [ticket] }).run({ text, claims: segmentClaims(text), evidence: [] }),
    );
    expect((result.claims ?? []).flatMap((claim) => claim.issues.map((issue) => issue.code))).toEqual(
      expected,
    );
    expect(requested.at(-1)).toBe(text.includes("42") ? "/tickets/42" : "/tickets/43");
  });

  it.each([
    [
      "nested quantifiers",
      { pattern: "(a+)+b", lookupUrl: "https://x.example/{value}" },
      /nested quantifiers/,
    ],
    ["no capture group", { pattern: "TICKET-\\d+", lookupUrl: "https://x.example/{value}" }, /capture group/],
    ["a URL without {value}", { pattern: "T-(\\d+)", lookupUrl: "https://x.example/" }, /lookupUrl/],
    ["an invalid pattern", { pattern: "T-(\\d+", lookupUrl: "https://x.example/{value}" }, /invalid pattern/],
  ])("refuses %s", (_, config, message) => {
    expect(() => customKindFromConfig({ kind: "ticket", ...config })).toThrow(message);
  });
});
