import { afterEach, describe, expect, it } from "vitest";
import { makeFakeCitationVerifier } from "../testing/fakes.js";
import { createMemoryGate, type MemoryGateClient } from "./create-memory-gate.js";

const artifacts = { "ADR-003": "# ADR-003\nWe use Pixeltable for memory storage." };
const gates: MemoryGateClient[] = [];
const open = async (options: Parameters<typeof createMemoryGate>[0] = {}) => {
  const gate = await createMemoryGate({ citationVerifier: makeFakeCitationVerifier(artifacts), ...options });
  gates.push(gate);
  return gate;
};
afterEach(async () => {
  while (gates.length > 0) await gates.pop()!.close();
});

const claim = (content: string, source = "ai_synthesis", memoryType = "fact") => ({
  content,
  source,
  memoryType,
  userId: "user-123",
});

describe("createMemoryGate (embedded PGlite)", () => {
  it("stores tier 1, queues tier 2, refuses tier 3", async () => {
    const gate = await open();
    const stored = await gate.ingest(
      claim("Per ADR-003, we use Pixeltable for memory storage", "conversation", "decision"),
    );
    const queued = await gate.ingest(claim("The API uses OAuth2"));
    const blocked = await gate.ingest(claim("I think we should use Redis"));
    expect([stored.status, queued.status, blocked.status]).toEqual(["stored", "queued", "blocked"]);
    expect((await gate.pending("user-123")).map((item) => item.content)).toEqual(["The API uses OAuth2"]);
    const hits = await gate.search("user-123", "Pixeltable memory");
    expect(hits.map((hit) => hit.memory.content)).toEqual([
      "Per ADR-003, we use Pixeltable for memory storage",
    ]);
  });

  it("a stored memory makes its copy a duplicate, with the id it duplicates", async () => {
    const gate = await open();
    const first = await gate.ingest(claim("We decided to use PostgreSQL", "conversation", "decision"));
    if (first.status !== "stored") throw new Error("expected the decision to be stored");
    const again = await gate.validate(claim("We decided to use PostgreSQL", "conversation", "decision"));
    expect(again).toMatchObject({ tier: "block", similarityScore: 1, conflictingMemoryId: first.memory.id });
  });

  it("an approved review item is stored once and then counts as a duplicate", async () => {
    const gate = await open();
    const queued = await gate.ingest(claim("The service uses PostgreSQL 15", "conversation"));
    if (queued.status !== "queued") throw new Error("expected review");
    await expect(gate.approve(queued.pending.queueId, "intruder")).rejects.toMatchObject({
      _tag: "ReviewItemNotFoundError",
    });
    const memory = await gate.approve(queued.pending.queueId, "user-123");
    expect(await gate.get(memory.id, "user-123")).toEqual(memory);
    expect((await gate.validate(claim("The service uses PostgreSQL 15", "conversation"))).tier).toBe("block");
    const trail = await gate.audit("user-123");
    expect(trail.map((entry) => entry.action)).toEqual(["enqueue", "approve"]);
  });

  it("throws the exported error classes for bad input and full queues", async () => {
    const gate = await open({ limits: { maxPendingPerUser: 1 } });
    await expect(gate.ingest(claim(""))).rejects.toMatchObject({ _tag: "InputError" });
    await gate.ingest(claim("The API uses OAuth2"));
    await expect(gate.ingest(claim("The cache is Redis"))).rejects.toMatchObject({
      _tag: "ReviewQueueFullError",
      scope: "user",
      limit: 1,
    });
  });

  it("the in-memory index option catches duplicates stored through the same gate", async () => {
    const gate = await open({ duplicateIndex: "index" });
    await gate.ingest(claim("OAuth2 is required", "documentation"));
    expect((await gate.validate(claim("OAuth2 is required!", "documentation"))).tier).toBe("block");
  });

  it("refuses a store duplicate threshold its bands cannot serve", async () => {
    await expect(createMemoryGate({ duplicateThreshold: 0.5 })).rejects.toMatchObject({
      _tag: "ConfigError",
    });
  });
});
