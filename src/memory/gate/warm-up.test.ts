import { Effect } from "effect";
import { afterEach, describe, expect, it } from "vitest";
import type { DuplicateCheckerService } from "../dedup/duplicate-checker.js";
import type { MemoryStoreService } from "../store/memory-store.js";
import { failingDuplicateChecker, makeFakeCitationVerifier } from "../testing/fakes.js";
import { createMemoryGate, type MemoryGateClient } from "./create-memory-gate.js";
import { defaultMemoryGateConfig } from "./gate-config.js";
import { warmUpValidation } from "./warm-up.js";

const gates: MemoryGateClient[] = [];
afterEach(async () => {
  while (gates.length > 0) await gates.pop()!.close();
});

/** `warmUpValidation` over a stand-in store and duplicate check, every claim supported, at most `maxChecks`. */
const warmUpOver = (store: Partial<MemoryStoreService>, dedup: DuplicateCheckerService, maxChecks: number) =>
  Effect.runPromise(
    warmUpValidation(
      store as MemoryStoreService,
      { dedup, support: { check: () => Effect.succeed({ supported: true, score: 1, reason: "fake" }) } },
      defaultMemoryGateConfig,
      { maxChecks, maxMs: 60_000 },
    ),
  );

const decision = (content: string, userId = "owner") => ({
  content,
  source: "conversation",
  memoryType: "decision",
  userId,
});

describe("memory gate warm-up", () => {
  it("validates stored memories again without checking citations or writing anything", async () => {
    const citations = makeFakeCitationVerifier({ "ADR-003": "# ADR-003\nWe use Pixeltable for storage." });
    const gate = await createMemoryGate({ citationVerifier: citations });
    gates.push(gate);
    const stored = [
      "Per ADR-003, we use Pixeltable for memory storage",
      "We decided to run the nightly export at two in the morning",
      "We decided that every service logs in JSON",
    ];
    for (const content of stored) expect((await gate.ingest(decision(content))).status).toBe("stored");
    const guess = {
      content: "The API uses OAuth2",
      source: "ai_synthesis",
      memoryType: "fact",
      userId: "owner",
    };
    expect((await gate.ingest(guess)).status).toBe("queued");
    const citationCalls = citations.calls.length;
    const trail = await gate.audit("owner");
    const pending = await gate.pending("owner");

    const report = await gate.warmUp({ maxChecks: 25, maxMs: 60_000 });

    expect(report).toMatchObject({ checks: 25, sampled: stored.length });
    expect(report.elapsedMs).toBeGreaterThanOrEqual(0);
    // The stored memory with a citation was checked again, and its citation was not.
    expect(citations.calls.length).toBe(citationCalls);
    expect(await gate.audit("owner")).toEqual(trail);
    expect(await gate.pending("owner")).toEqual(pending);
    // The memories are still there and still the only ones: a stored one is still its own duplicate.
    expect((await gate.validate(decision(stored[1] as string))).tier).toBe("block");
    expect((await gate.search("owner", "nightly export"))[0]?.memory.content).toBe(stored[1]);
  });

  it("stops at its check or time budget", async () => {
    const gate = await createMemoryGate({ citationVerifier: makeFakeCitationVerifier({}) });
    gates.push(gate);
    expect((await gate.warmUp({ maxChecks: 0 })).checks).toBe(0);
    expect((await gate.warmUp({ maxMs: 0 })).checks).toBe(0);
    expect((await gate.warmUp({ maxChecks: 7, maxMs: 60_000 })).checks).toBe(7);
  });

  it("turns the event loop between checks, so a timer set before it can abort it; an aborted one runs none", async () => {
    const gate = await createMemoryGate({ citationVerifier: makeFakeCitationVerifier({}) });
    gates.push(gate);
    for (const content of ["We decided to ship on Tuesdays", "We decided that every service logs in JSON"])
      expect((await gate.ingest(decision(content))).status).toBe("stored");
    expect((await gate.warmUp({ maxChecks: 5, signal: AbortSignal.abort() })).checks).toBe(0);
    // The embedded store answers its queries without the loop turning: without a turn between checks, the
    // timer below would fire only after all 2,000.
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 0);
    try {
      const report = await gate.warmUp({ maxChecks: 2_000, maxMs: 60_000, signal: controller.signal });
      expect(controller.signal.aborted).toBe(true);
      expect(report.checks).toBeGreaterThanOrEqual(1);
      expect(report.checks).toBeLessThan(2_000);
    } finally {
      clearTimeout(timer);
    }
  });

  it("an empty store warms up on made-up claims", async () => {
    const gate = await createMemoryGate({ citationVerifier: makeFakeCitationVerifier({}) });
    gates.push(gate);
    expect(await gate.warmUp({ maxChecks: 9, maxMs: 60_000 })).toMatchObject({ checks: 9, sampled: 0 });
    expect(await gate.audit("veracity-warm-up")).toEqual([]);
  });

  it("a store it cannot read, or a duplicate check that fails, ends nothing but the warm-up's own work", async () => {
    const failing = Effect.die(new Error("connection lost"));
    let checked = 0;
    const counted: DuplicateCheckerService = {
      ...failingDuplicateChecker,
      check: (candidate) => {
        checked += 1;
        return failingDuplicateChecker.check(candidate);
      },
    };
    const report = await warmUpOver({ sample: () => failing, candidates: () => failing }, counted, 5);
    expect(report).toMatchObject({ checks: 5, sampled: 0 });
    expect(checked).toBe(5);
  });

  it("a stored claim the gate refuses as input ends the warm-up", async () => {
    const unique: DuplicateCheckerService = {
      check: () => Effect.succeed({ isDuplicate: false }),
      remember: () => Effect.void,
      forget: () => Effect.void,
    };
    const report = await warmUpOver(
      { sample: () => Effect.succeed([{ userId: "owner", content: "" }]) },
      unique,
      50,
    );
    expect(report).toMatchObject({ checks: 1, sampled: 1 });
  });
});
