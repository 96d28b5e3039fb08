import path from "node:path";
import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makePgliteClient } from "../../../storage/pglite-client.js";
import { segmentClaims } from "../../../text/claims.js";
import { makeCitationsLayer } from "../layer.js";
import { type EvidenceStore, prepareEvidenceStore } from "../store/evidence-store.js";
import { fixtureDirectory, openFixtureStore } from "../testing/fixture-store.js";
import { type ReplayServer, startReplayServer } from "../testing/jsonrpc-replay-server.js";

// Recorded on mainnet (copied into fixtures/ethereum/jsonrpc): the receipt of this transaction (block
// 0x1ac9f3) and block 0xb872 (47218).
const onChainTransaction = "0x2e3dcd051a91d3a694f6b8de2ac4b5fe7acdba55f58bcf8471ff00d4a430074d";
const onChainSender = "0xed059bc543141c8c93031d545079b3da0233b27f";
// An older receipt that does not carry sender and recipient.
const senderlessReceipt = "0x04cbcb236043d8fb7839e07bbc7f5eed692fb2ca55d897f1101eac3e3ad4fab8";
const unknownTransaction = `0x${"7c".repeat(32)}`;

const run = (store: EvidenceStore | undefined, rpcUrl: string, text: string) =>
  Effect.runPromise(
    makeCitationsLayer({ ...(store ? { store } : {}), rpcUrl }).run({
      text,
      claims: segmentClaims(text),
      evidence: [],
    }),
  );

describe("JSON-RPC fallback against a replaying node on 127.0.0.1", () => {
  let server: ReplayServer;
  let emptyStore: EvidenceStore;
  beforeAll(async () => {
    server = await startReplayServer(path.join(fixtureDirectory, "jsonrpc"));
    emptyStore = await Effect.runPromise(Effect.flatMap(makePgliteClient("memory://"), prepareEvidenceStore));
  });
  afterAll(async () => {
    await server.close();
    await Effect.runPromise(emptyStore.close);
  });

  it("finds on chain a transaction the store lacks, and says so", async () => {
    const result = await run(
      emptyStore,
      server.url,
      `[ADDR:${onChainSender}] sent funds in [TX:${onChainTransaction}].`,
    );
    const checks = result.details.checks as {
      kind: string;
      status: string;
      detail: string;
      source: string;
    }[];
    expect(checks.find((check) => check.kind === "transaction")).toMatchObject({
      status: "VERIFIED",
      source: "json-rpc",
      detail: "found on chain, not in the local store",
    });
    expect(result.details.foundOnChainOnly).toBe(1);
    expect(server.calls.some((call) => call.method === "eth_getTransactionReceipt")).toBe(true);
  });

  it("compares the claim with the on-chain receipt", async () => {
    const result = await run(
      emptyStore,
      server.url,
      `[ADDR:${"0x".padEnd(42, "9")}] sent funds in [TX:${onChainTransaction}].`,
    );
    const codes = result.claims?.flatMap((claim) => claim.issues.map((issue) => issue.code));
    expect(codes).toContain("CITATION_MISMATCH");
  });

  it("reports a sender the receipt cannot confirm as CITATION_ERROR, not a pass", async () => {
    const result = await run(
      emptyStore,
      server.url,
      `[ADDR:${onChainSender}] sent funds in [TX:${senderlessReceipt}].`,
    );
    const codes = result.claims?.flatMap((claim) => claim.issues.map((issue) => issue.code));
    expect(codes).toContain("CITATION_ERROR");
    expect(codes).not.toContain("CITATION_MISMATCH");
  });

  it("finds a recorded block on chain", async () => {
    const result = await run(emptyStore, server.url, "It happened at [BLOCK:47218].");
    expect(result.passed).toBe(true);
  });

  it("reports a transaction in neither the store nor the chain as NOT_FOUND", async () => {
    const result = await run(emptyStore, server.url, `Paid in [TX:${unknownTransaction}].`);
    expect(result.claims?.[0]?.issues.map((issue) => issue.code)).toEqual(["CITATION_NOT_FOUND"]);
  });

  it("does not ask the chain about what the store already holds", async () => {
    const store = await Effect.runPromise(openFixtureStore());
    const before = server.calls.length;
    const result = await run(
      store,
      server.url,
      `Paid in [TX:0x05287a561f218418892ab053adfb3d919860988b19458c570c5c30f51c146f02].`,
    );
    expect(result.passed).toBe(true);
    expect(server.calls.length).toBe(before);
    await Effect.runPromise(store.close);
  });

  it("batches the lookups of one text into few HTTP requests", async () => {
    const requestsBefore = server.httpRequests();
    const callsBefore = server.calls.length;
    const hashes = Array.from(
      { length: 8 },
      (_, index) => `0x${index.toString(16).padStart(2, "0").repeat(32)}`,
    );
    await run(emptyStore, server.url, hashes.map((hash) => `[TX:${hash}]`).join(" "));
    expect(server.calls.length - callsBefore).toBe(8);
    expect(server.httpRequests() - requestsBefore).toBeLessThan(8);
  });

  it("turns a node outage into CITATION_ERROR, never a pass", async () => {
    server.failWith500(true);
    try {
      const result = await run(emptyStore, server.url, `Paid in [TX:${unknownTransaction}].`);
      expect(result.passed).toBe(false);
      expect(result.claims?.[0]?.issues.map((issue) => issue.code)).toEqual(["CITATION_ERROR"]);
    } finally {
      server.failWith500(false);
    }
  });

  it("uses the node as the primary verifier when no store is configured", async () => {
    const result = await run(undefined, server.url, `Paid in [TX:${onChainTransaction}].`);
    expect(result.passed).toBe(true);
  });
});
