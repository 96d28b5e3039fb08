import { Effect, Exit, Scope } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlClientService } from "../storage/sql-client.js";
import { storageBackends } from "../storage/testing.js";
import type { AuditLogShape } from "./audit-log.js";
import { auditEntryForOperation } from "./entries-for.js";
import { maxMetadataBytes } from "./entry.js";
import { AuditBacklogError, makeGroupCommitAppender } from "./group-commit.js";
import { freshAuditLog } from "./testing.js";

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect);

const entry = (index: number, metadata: Record<string, unknown> = { index }) =>
  auditEntryForOperation({
    operation: "verification",
    actor: `user-${index % 3}`,
    input: { text: `input ${index}` },
    output: { passed: index % 2 === 0 },
    metadata,
  });

/** Counts the transactions the appender asks for. */
const counting = (log: AuditLogShape) => {
  const batches: number[] = [];
  const counted: AuditLogShape = {
    ...log,
    appendMany: (inputs) => {
      batches.push(inputs.length);
      return log.appendMany(inputs);
    },
  };
  return { counted, batches };
};

describe.each(storageBackends())("group commit of audit entries: $name", (backend) => {
  let scope: Scope.CloseableScope;
  let client: SqlClientService;

  beforeAll(async () => {
    scope = await run(Scope.make());
    client = await run(Scope.extend(backend.open(), scope));
  });
  afterAll(async () => {
    if (scope) await run(Scope.close(scope, Exit.void));
  });

  const freshLog = () => run(freshAuditLog(client));

  it("writes 200 concurrent appends in arrival order, in fewer transactions, as one intact chain", async () => {
    const log = await freshLog();
    const { counted, batches } = counting(log);
    const appender = makeGroupCommitAppender(counted, run, { maxBatch: 64 });
    const stored = await Promise.all(
      Array.from({ length: 200 }, (_, index) => appender.append(entry(index))),
    );
    // Each caller gets its own entry back, in the order it asked.
    expect(stored.map((each) => JSON.parse(each.metadataJson).index)).toEqual(
      Array.from({ length: 200 }, (_, index) => index),
    );
    expect(stored.map((each) => each.sequence)).toEqual(Array.from({ length: 200 }, (_, index) => index + 1));
    // All 200 were asked for in one turn of the event loop: they fill batches of the maximum size, even on an
    // embedded database whose transactions do not yield to let other appends queue up.
    expect(batches).toEqual([64, 64, 64, 8]);
    const report = await run(log.verify);
    expect(report).toMatchObject({ intact: true, checked: 200 });
  });

  it("appendMany writes more entries than one INSERT takes, in order, as one chain after the head", async () => {
    const log = await freshLog();
    await run(log.append(entry(-1)));
    const stored = await run(log.appendMany(Array.from({ length: 1_200 }, (_, index) => entry(index))));
    expect(stored.map((each) => each.sequence)).toEqual(
      Array.from({ length: 1_200 }, (_, index) => index + 2),
    );
    expect(await run(log.verify)).toMatchObject({ intact: true, checked: 1_201 });
  });

  it("fails only the invalid entry of a batch; the others are stored", async () => {
    const log = await freshLog();
    const appender = makeGroupCommitAppender(log, run);
    const tooLarge = entry(1, { blob: "x".repeat(maxMetadataBytes + 1) });
    const outcomes = await Promise.allSettled([
      appender.append(entry(0)),
      appender.append(tooLarge),
      appender.append(entry(2)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await run(log.verify)).toMatchObject({ intact: true, checked: 2 });
  });

  it("refuses an append past the queue limit with a typed error instead of dropping it", async () => {
    const log = await freshLog();
    const appender = makeGroupCommitAppender(log, run, { maxQueued: 3, maxBatch: 1 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, index) => appender.append(entry(index))),
    );
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(refused.length).toBeGreaterThan(0);
    for (const outcome of refused)
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(AuditBacklogError);
    await appender.drain();
    const accepted = outcomes.length - refused.length;
    expect(await run(log.verify)).toMatchObject({ intact: true, checked: accepted });
  });

  it("with a window, an idle log writes at once and a busy one lets the entries of the window share a transaction", async () => {
    const log = await freshLog();
    const starts: number[] = [];
    const batches: number[] = [];
    const timed: AuditLogShape = {
      ...log,
      appendMany: (inputs) =>
        Effect.suspend(() => {
          starts.push(performance.now());
          batches.push(inputs.length);
          return log.appendMany(inputs);
        }),
    };
    // Wide enough that a slow machine's first transaction ends well inside it.
    const windowMs = 300;
    const appender = makeGroupCommitAppender(timed, run, { windowMs });
    const askedAt = performance.now();
    await appender.append(entry(0));
    // Idle: the first entry did not wait for the window.
    expect((starts[0] as number) - askedAt).toBeLessThan(windowMs / 2);
    // Busy: entries asked for one by one, each in its own turn, right after a transaction started.
    const pending: Promise<unknown>[] = [];
    for (let index = 1; index <= 5; index += 1) {
      pending.push(appender.append(entry(index)));
      await new Promise((done) => setImmediate(done));
    }
    await Promise.all(pending);
    expect(batches).toEqual([1, 5]);
    // Timers may fire up to a millisecond early; the second transaction waited out the window.
    expect((starts[1] as number) - (starts[0] as number)).toBeGreaterThanOrEqual(windowMs - 2);
    expect(await run(log.verify)).toMatchObject({ intact: true, checked: 6 });
  });
});
