import { Effect, Exit, Scope } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlClientService } from "../../storage/sql-client.js";
import { storageBackends } from "../../storage/testing.js";
import { makeStoreDuplicateChecker } from "../dedup/store-duplicate-checker.js";
import type { EvidenceObject } from "../evidence/evidence-object.js";
import type { ValidationResult } from "../model.js";
import type { MemoryStoreService } from "./memory-store.js";
import { defaultMemoryLimits, type NewMemory } from "./records.js";
import type { ReviewQueueService } from "./review-queue.js";
import { migrateMemoryStore } from "./sql-memory-layer.js";
import { makeSqlMemoryStore } from "./sql-memory-store.js";
import { makeSqlReviewQueue } from "./sql-review-queue.js";
import { bandKeysOf } from "./sql-rows.js";

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect);
const failureTag = async <A, E>(effect: Effect.Effect<A, E>) => {
  const exit = await Effect.runPromiseExit(effect);
  if (Exit.isSuccess(exit)) return "success";
  const error = exit.cause._tag === "Fail" ? (exit.cause.error as { _tag?: string }) : undefined;
  return error?._tag ?? exit.cause._tag;
};

const evidence = (claim: string, validityHorizon?: Date): EvidenceObject => ({
  claim,
  captureTime: new Date("2026-01-01T00:00:00Z"),
  confidence: "medium",
  metadata: { source: "test" },
  ...(validityHorizon === undefined ? {} : { validityHorizon }),
});

const memory = (userId: string, content: string, validityHorizon?: Date): NewMemory => ({
  userId,
  content,
  memoryType: "fact",
  source: "documentation",
  evidence: evidence(content, validityHorizon),
});

const validation = (claim: string): ValidationResult => ({
  tier: "flag-review",
  approved: false,
  reason: "Ungrounded assertion needs verification",
  evidence: evidence(claim),
  checksPassed: ["no_speculation"],
  checksFailed: [],
});

const pendingItem = (userId: string, content: string) => ({
  ...memory(userId, content),
  validation: validation(content),
});

describe.each(storageBackends())("memory store contract: $name", (backend) => {
  let scope: Scope.CloseableScope;
  let sql: SqlClientService;
  let store: MemoryStoreService;
  let queue: ReviewQueueService;
  const limits = { ...defaultMemoryLimits, maxPendingPerUser: 3, maxPendingTotal: 5 };

  beforeAll(async () => {
    scope = await run(Scope.make());
    sql = await run(Scope.extend(backend.open(), scope));
    await run(migrateMemoryStore(sql));
    await run(migrateMemoryStore(sql)); // idempotent
    store = makeSqlMemoryStore(sql, limits);
    queue = makeSqlReviewQueue(sql, limits);
  });
  afterAll(async () => {
    if (scope) await run(Scope.close(scope, Exit.void));
  });

  it("stores and gets a memory, only for its owner", async () => {
    const stored = await run(store.store(memory("alice", "Alice's service runs on port 8080")));
    expect(await run(store.get(stored.id, "alice"))).toEqual(stored);
    expect(await run(store.get(stored.id, "mallory"))).toBeUndefined();
    expect(stored.evidence.claim).toBe("Alice's service runs on port 8080");
  });

  it("searches by text with full-text ranking, within the user's memories", async () => {
    await run(store.store(memory("search-user", "The billing service stores invoices in PostgreSQL")));
    await run(
      store.store(memory("search-user", "PostgreSQL replicas serve PostgreSQL read traffic for billing")),
    );
    await run(store.store(memory("search-user", "The frontend is written in TypeScript")));
    await run(store.store(memory("other-user", "PostgreSQL holds everything for billing")));
    const hits = await run(store.search("search-user", "postgresql billing"));
    expect(hits.map((hit) => hit.memory.content)).toEqual([
      "PostgreSQL replicas serve PostgreSQL read traffic for billing",
      "The billing service stores invoices in PostgreSQL",
    ]);
    expect(hits[0]!.rank).toBeGreaterThan(hits[1]!.rank);
  });

  it("refuses an empty or oversized query", async () => {
    expect(await failureTag(store.search("search-user", " "))).toBe("InputError");
    expect(await failureTag(store.search("search-user", "x".repeat(1_001)))).toBe("InputError");
  });

  it("expired memories leave search and get, and expire() deletes them", async () => {
    const past = new Date(Date.now() - 60_000);
    const old = await run(store.store(memory("expiring", "The staging cluster uses Kubernetes 1.21", past)));
    const live = await run(store.store(memory("expiring", "The production cluster uses Kubernetes 1.30")));
    expect((await run(store.search("expiring", "kubernetes cluster"))).map((hit) => hit.memory.id)).toEqual([
      live.id,
    ]);
    expect(await run(store.get(old.id, "expiring"))).toBeUndefined();
    const removed = await run(store.expire());
    expect(removed).toContainEqual({ id: old.id, userId: "expiring" });
    expect(removed.map((entry) => entry.id)).not.toContain(live.id);
    const trail = await run(queue.audit("expiring"));
    expect(trail.filter((entry) => entry.action === "expire")).toMatchObject([
      { actor: "system", memoryId: old.id },
    ]);
  });

  it("the store-backed duplicate check finds near-duplicates through the saved band keys", async () => {
    const first = await run(
      store.store(memory("dedup-user", "Per ADR-003, we use Pixeltable for memory storage today")),
    );
    const checker = makeStoreDuplicateChecker(store);
    const duplicate = await run(
      checker.check({
        userId: "dedup-user",
        content: "per adr-003 we use pixeltable for memory storage today",
      }),
    );
    expect(duplicate).toEqual({ isDuplicate: true, similarity: 1, memoryId: first.id, method: "lexical" });
    const other = await run(
      checker.check({ userId: "dedup-user", content: "We use Redis for the session cache" }),
    );
    expect(other.isDuplicate).toBe(false);
    const otherUser = await run(
      checker.check({
        userId: "someone-else",
        content: "Per ADR-003, we use Pixeltable for memory storage today",
      }),
    );
    expect(otherUser.isDuplicate).toBe(false);
  });

  it("candidates: each live memory of the user sharing a band key, once, up to the limit", async () => {
    const text = "The nightly export job writes parquet files to the archive bucket";
    const keys = bandKeysOf(text);
    const a = await run(store.store(memory("band-user", text)));
    const b = await run(store.store(memory("band-user", text)));
    await run(store.store(memory("band-user", text, new Date(Date.now() - 60_000))));
    await run(store.store(memory("band-other", text)));
    await run(store.store(memory("band-user", "Something else entirely about the office coffee machine")));
    // Both live copies share all ten keys with the text; each is returned once, the expired copy and the
    // other user's copy not at all.
    const found = await run(store.candidates("band-user", keys, 10));
    expect(found.map((row) => row.id).sort()).toEqual([a.id, b.id].sort());
    expect(found.find((row) => row.id === a.id)?.content).toBe(text);
    expect(await run(store.candidates("band-user", keys, 1))).toHaveLength(1);
    expect(await run(store.candidates("band-user", keys.slice(0, 1), 10))).toHaveLength(2);
    expect(await run(store.candidates("band-user", ["123"], 10))).toEqual([]);
    expect(await run(store.candidates("band-user", [], 10))).toEqual([]);
  });

  it("sample: live memories of the user holding the most, up to the limit", async () => {
    // More memories than any other test of this suite gives one user, so this user holds the most.
    const texts = Array.from({ length: 12 }, (_, i) => `Sampled fact number ${i + 1} about the build farm`);
    for (const text of texts) await run(store.store(memory("sample-user", text)));
    await run(store.store(memory("sample-user", "An expired fact", new Date(Date.now() - 60_000))));
    await run(store.store(memory("sample-other", "Another user's fact")));
    const all = await run(store.sample(100));
    expect(all.map((row) => row.userId)).toEqual(texts.map(() => "sample-user"));
    expect(all.map((row) => row.content).sort()).toEqual([...texts].sort());
    expect(await run(store.sample(5))).toHaveLength(5);
    expect(await run(store.sample(0))).toEqual([]);
  });

  it("refuses memories beyond the per-user limit, and expiry frees room", async () => {
    const small = makeSqlMemoryStore(sql, { ...limits, maxMemoriesPerUser: 2 });
    await run(small.store(memory("capped", "First capped memory", new Date(Date.now() - 1_000))));
    await run(small.store(memory("capped", "Second capped memory")));
    const full = await Effect.runPromiseExit(small.store(memory("capped", "Third capped memory")));
    expect(full).toMatchObject({
      _tag: "Failure",
      cause: { error: { _tag: "MemoryStoreFullError", limit: 2 } },
    });
    await run(small.store(memory("uncapped", "Another user is not affected")));
    await run(small.expire());
    await run(small.store(memory("capped", "Third capped memory")));
  });

  it("enqueues, lists pending items for the owner, and gets one only for its owner (no IDOR)", async () => {
    const item = await run(queue.enqueue(pendingItem("owner", "The API uses OAuth2")));
    expect(item).toMatchObject({ userId: "owner", content: "The API uses OAuth2", memoryType: "fact" });
    expect((await run(queue.pending("owner"))).map((pending) => pending.queueId)).toEqual([item.queueId]);
    expect(await run(queue.getById(item.queueId, "owner"))).toEqual(item);
    expect(await run(queue.pending("intruder"))).toEqual([]);
    expect(await failureTag(queue.getById(item.queueId, "intruder"))).toBe("ReviewItemNotFoundError");
    expect(await failureTag(queue.getById("no-such-id", "owner"))).toBe("ReviewItemNotFoundError");
  });

  it("only the owner approves or rejects; an attempt by anyone else changes nothing", async () => {
    const item = await run(queue.enqueue(pendingItem("owner2", "The cache TTL is 300 seconds")));
    expect(await failureTag(queue.approve(item.queueId, "intruder"))).toBe("ReviewItemNotFoundError");
    expect(await failureTag(queue.reject(item.queueId, "intruder", "nope"))).toBe("ReviewItemNotFoundError");
    expect(await run(queue.getById(item.queueId, "owner2"))).toEqual(item);
    const stored = await run(queue.approve(item.queueId, "owner2"));
    expect(stored).toMatchObject({ userId: "owner2", content: "The cache TTL is 300 seconds" });
    expect(stored.evidence).toMatchObject({ confidence: "high", metadata: { reviewedBy: "owner2" } });
    expect(await run(store.get(stored.id, "owner2"))).toEqual(stored);
    expect(await run(queue.pending("owner2"))).toEqual([]);
    expect(await failureTag(queue.approve(item.queueId, "owner2"))).toBe("ReviewItemNotFoundError");
  });

  it("rejects with a reason and audits every action with actor and time", async () => {
    const item = await run(queue.enqueue(pendingItem("owner3", "The API uses OAuth2 everywhere")));
    expect(await failureTag(queue.reject(item.queueId, "owner3", "  "))).toBe("InputError");
    await run(queue.reject(item.queueId, "owner3", "Incorrect, we use JWT"));
    expect(await failureTag(queue.getById(item.queueId, "owner3"))).toBe("ReviewItemNotFoundError");
    const trail = await run(queue.audit("owner3"));
    expect(trail.map((entry) => [entry.action, entry.actor, entry.reason])).toEqual([
      ["enqueue", "owner3", undefined],
      ["reject", "owner3", "Incorrect, we use JWT"],
    ]);
    for (const entry of trail) expect(entry.at).toBeInstanceOf(Date);
  });

  it("refuses items beyond the per-user and total limits with a clear error", async () => {
    for (const n of [1, 2, 3]) await run(queue.enqueue(pendingItem("limited", `Claim number ${n}`)));
    const perUser = await Effect.runPromiseExit(queue.enqueue(pendingItem("limited", "Claim number 4")));
    expect(perUser).toMatchObject({
      _tag: "Failure",
      cause: { error: { _tag: "ReviewQueueFullError", scope: "user", limit: 3 } },
    });
    // 1 (owner) + 3 (limited) + 1 more = 5 pending in total: the next one hits the total limit.
    await run(queue.enqueue(pendingItem("filler", "Claim of filler")));
    const total = await Effect.runPromiseExit(queue.enqueue(pendingItem("newcomer", "Any claim")));
    expect(total).toMatchObject({
      _tag: "Failure",
      cause: { error: { _tag: "ReviewQueueFullError", scope: "total", limit: 5 } },
    });
  });

  it("50 parallel approve/reject calls on the same items store each approved item exactly once", async () => {
    const bigQueue = makeSqlReviewQueue(sql, { ...defaultMemoryLimits });
    const items = await run(
      Effect.forEach([0, 1, 2, 3, 4], (n) => bigQueue.enqueue(pendingItem("racer", `Racing claim ${n}`))),
    );
    const calls = Array.from({ length: 50 }, (_, i) => {
      const item = items[i % items.length]!;
      const call: Effect.Effect<readonly [string, string], { readonly _tag: string }> =
        i % 2 === 0
          ? bigQueue.approve(item.queueId, "racer").pipe(Effect.as(["approve", item.queueId] as const))
          : bigQueue
              .reject(item.queueId, "racer", "lost the race")
              .pipe(Effect.as(["reject", item.queueId] as const));
      return call;
    });
    const outcomes = await run(
      Effect.all(
        calls.map((call) => Effect.either(call)),
        { concurrency: "unbounded" },
      ),
    );
    const wins = outcomes.flatMap((outcome) => (outcome._tag === "Right" ? [outcome.right] : []));
    const losses = outcomes.flatMap((outcome) => (outcome._tag === "Left" ? [outcome.left._tag] : []));
    expect(wins).toHaveLength(items.length);
    expect(new Set(wins.map(([, queueId]) => queueId)).size).toBe(items.length);
    expect(new Set(losses)).toEqual(new Set(["ReviewItemNotFoundError"]));
    const rows = await run(
      sql.query<{ origin_queue_id: string; n: number }>(
        "SELECT origin_queue_id, count(*)::int AS n FROM veracity_memories WHERE user_id = 'racer' GROUP BY origin_queue_id",
      ),
    );
    const approved = wins.filter(([action]) => action === "approve").map(([, queueId]) => queueId);
    expect(rows.map((row) => row.origin_queue_id).sort()).toEqual([...approved].sort());
    expect(rows.every((row) => row.n === 1)).toBe(true);
    expect(await run(bigQueue.pending("racer"))).toEqual([]);
    const decisions = (await run(bigQueue.audit("racer"))).filter((entry) => entry.action !== "enqueue");
    expect(decisions).toHaveLength(items.length);
  });
});
