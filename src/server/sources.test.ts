import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sourceHash } from "./sources/source-store.js";
import { startTestServer, type TestServer } from "./testing/test-server.js";

/**
 * Sources kept by hash: a document uploaded once is named in later `/v1/check` and `/v1/verify` requests, per
 * user, with the same verdict as when its text is sent.
 */
let server: TestServer;
let alice: string;
let bob: string;

const filing =
  "Northwind Traders annual report 2024. Revenue rose from $4.2 million in 2023 to $5.0 million in 2024. " +
  "The company opened a second plant in Tampere, Finland, in August 2024.";

beforeAll(async () => {
  server = await startTestServer();
  alice = await server.createApiKey("alice-sources", "agent");
  bob = await server.createApiKey("bob-sources", "agent");
}, 180_000);

afterAll(async () => {
  await server?.close();
});

describe("sources named by hash", () => {
  it("stores a source, answers its SHA-256, and verifies requests that name it as if its text were sent", async () => {
    const stored = await server.call("POST", "/v1/sources", { key: alice, body: { text: filing } });
    expect(stored.status).toBe(201);
    expect(stored.body).toEqual({ hash: sourceHash(filing), chars: filing.length });
    expect((await server.call("GET", `/v1/sources/${sourceHash(filing)}`, { key: alice })).body).toEqual({
      hash: sourceHash(filing),
      chars: filing.length,
    });
    for (const [text, passes] of [
      ["Revenue rose from $4.2 million to $5.0 million in 2024.", true],
      ["Revenue fell from $4.2 million to $3.1 million in 2024.", false],
    ] as const) {
      for (const route of ["/v1/check", "/v1/verify"]) {
        const byText = await server.call("POST", route, { key: alice, body: { text, sources: [filing] } });
        const byHash = await server.call("POST", route, {
          key: alice,
          body: { text, sourceRefs: [sourceHash(filing)] },
        });
        expect(byHash.status).toBe(200);
        expect(byHash.body.passed).toBe(passes);
        expect(byHash.body.claims).toEqual(byText.body.claims);
      }
    }
  });

  it("adds named sources after the given ones, within the sources one request may hold", async () => {
    const other = "Contoso reported revenue of $9.9 million in 2024.";
    await server.call("POST", "/v1/sources", { key: alice, body: { text: filing } });
    const both = await server.call("POST", "/v1/check", {
      key: alice,
      body: {
        text: "Contoso reported revenue of $9.9 million.",
        sources: [other],
        sourceRefs: [sourceHash(filing)],
      },
    });
    expect(both.status).toBe(200);
    expect(both.body.passed).toBe(true);
    const tooMany = await server.call("POST", "/v1/check", {
      key: alice,
      body: {
        text: "x",
        sources: Array.from({ length: 100 }, () => other),
        sourceRefs: [sourceHash(filing)],
      },
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe("too-many-sources");
  });

  it("holds named sources to the evidence limit a request's body would", async () => {
    const hashes: string[] = [];
    for (const letter of ["a", "b", "c"]) {
      const stored = await server.call("POST", "/v1/sources", {
        key: alice,
        body: { text: `${letter} `.repeat(400_000) },
      });
      expect(stored.status).toBe(201);
      hashes.push(stored.body.hash);
    }
    const tooLarge = await server.call("POST", "/v1/check", {
      key: alice,
      body: { text: "a b c", sourceRefs: hashes },
    });
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.code).toBe("evidence-too-large");
  }, 60_000);

  it("keeps each user's sources apart: another user's hash is not found", async () => {
    await server.call("POST", "/v1/sources", { key: alice, body: { text: filing } });
    const asBob = await server.call("POST", "/v1/check", {
      key: bob,
      body: { text: "Revenue rose to $5.0 million.", sourceRefs: [sourceHash(filing)] },
    });
    expect(asBob.status).toBe(404);
    expect(asBob.body.code).toBe("source-not-found");
    expect(asBob.body.detail).toContain(sourceHash(filing));
    expect((await server.call("GET", `/v1/sources/${sourceHash(filing)}`, { key: bob })).status).toBe(404);
  });

  it("refuses a malformed hash and an oversized source with 400, as problems", async () => {
    const malformed = await server.call("POST", "/v1/check", {
      key: alice,
      body: { text: "x", sourceRefs: ["not-a-hash"] },
    });
    expect(malformed.status).toBe(400);
    expect((await server.call("GET", "/v1/sources/XYZ", { key: alice })).status).toBe(400);
    const oversized = await server.call("POST", "/v1/sources", {
      key: alice,
      body: { text: "a".repeat(1_000_001) },
    });
    expect(oversized.status).toBeGreaterThanOrEqual(400);
    expect(oversized.status).toBeLessThan(500);
  });
});
