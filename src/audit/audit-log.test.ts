import { Effect, Exit, Scope } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { VerificationResult } from "../model/result.js";
import type { SqlClientService } from "../storage/sql-client.js";
import { storageBackends } from "../storage/testing.js";
import { type AuditLogShape, makeAuditLog } from "./audit-log.js";
import { withAuditTrail } from "./audited-verify.js";
import { auditEntryForOperation } from "./entries-for.js";
import { sha256Hex } from "./hash.js";
import { freshAuditLog } from "./testing.js";

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect);

const entry = (index: number) =>
  auditEntryForOperation({
    operation: index % 2 === 0 ? "verification" : "ingestion",
    actor: `user-${index}`,
    input: { text: `input ${index}` },
    output: { passed: index % 3 !== 0 },
    confidence: (index % 10) / 10,
    citationsVerified: index,
    citationsFailed: index % 2,
    executionTimeMs: 12.5,
    metadata: { index, nested: { z: 1, a: [1, 2] } },
  });

/** Each tampering is applied to a freshly filled log of five entries. */
const tamperings: readonly [string, string, RegExp][] = [
  [
    "edits an entry's confidence",
    "UPDATE veracity_audit_log SET confidence = 0.99 WHERE sequence = 3",
    /edited/,
  ],
  [
    "edits an entry's metadata",
    `UPDATE veracity_audit_log SET metadata_json = '{"index":2}' WHERE sequence = 2`,
    /edited/,
  ],
  [
    "edits and re-hashes without fixing the next link",
    "UPDATE veracity_audit_log SET actor = 'mallory' WHERE sequence = 4",
    /edited/,
  ],
  ["deletes a middle entry", "DELETE FROM veracity_audit_log WHERE sequence = 3", /missing|broken-link/],
  ["deletes the first entry", "DELETE FROM veracity_audit_log WHERE sequence = 1", /missing|broken-link/],
  ["deletes the last entry", "DELETE FROM veracity_audit_log WHERE sequence = 5", /truncated/],
  [
    "swaps the order of two entries",
    "UPDATE veracity_audit_log SET sequence = 100 WHERE sequence = 2; UPDATE veracity_audit_log SET sequence = 2 WHERE sequence = 3; UPDATE veracity_audit_log SET sequence = 3 WHERE sequence = 100",
    /edited|reordered|broken-link/,
  ],
];

describe.each(storageBackends())("audit log: $name", (backend) => {
  let scope: Scope.CloseableScope;
  let client: SqlClientService;
  let log: AuditLogShape;

  beforeAll(async () => {
    scope = await run(Scope.make());
    client = await run(Scope.extend(backend.open(), scope));
  });
  afterAll(async () => {
    if (scope) await run(Scope.close(scope, Exit.void));
  });

  const freshLog = async () => {
    log = await run(freshAuditLog(client));
    for (let index = 1; index <= 5; index++) await run(log.append(entry(index)));
  };

  /** Deletes the entries after the third and moves the head record back onto it, as a tamperer could. */
  const deleteAfterThirdAndRewindHead = async () => {
    const [third] = await run(log.entries({ afterSequence: 2, limit: 1 }));
    await run(
      client.executeScript(
        `DELETE FROM veracity_audit_log WHERE sequence > 3; UPDATE veracity_audit_head SET sequence = 3, entry_hash = '${third!.entryHash}'`,
      ),
    );
    return third!;
  };

  it("chains appended entries and verifies an untouched log as intact", async () => {
    await freshLog();
    const entries = await run(log.entries());
    expect(entries.map((stored) => stored.sequence)).toEqual([1, 2, 3, 4, 5]);
    expect(entries[1]?.previousHash).toBe(entries[0]?.entryHash);
    expect(entries[0]?.metadataJson).toBe('{"index":1,"nested":{"a":[1,2],"z":1}}');
    expect(await run(log.verify)).toEqual({
      intact: true,
      checked: 5,
      problemCount: 0,
      problems: [],
      last: { sequence: 5, entryHash: entries[4]?.entryHash },
    });
  });

  it("detects a deleted tail with a rewound head record only against an anchor kept elsewhere", async () => {
    await freshLog();
    const anchor = (await run(log.verify)).last!;
    await deleteAfterThirdAndRewindHead();
    expect((await run(log.verify)).intact).toBe(true);
    const report = await run(log.verifyAgainst(anchor));
    expect(report.intact).toBe(false);
    expect(report.problems).toMatchObject([{ sequence: 5, kind: "truncated" }]);
  });

  it("serializes concurrent appends into one unbroken chain", async () => {
    await freshLog();
    await run(
      Effect.all(
        [6, 7, 8, 9].map((index) => log.append(entry(index))),
        { concurrency: 4 },
      ),
    );
    const report = await run(log.verify);
    expect(report.intact).toBe(true);
    expect(report.checked).toBe(9);
  });

  it.each(tamperings)("detects a log that %s", async (_, tamper, kind) => {
    await freshLog();
    await run(client.executeScript(tamper));
    const report = await run(log.verify);
    expect(report.intact).toBe(false);
    expect(report.problems.map((problem) => problem.kind).join(" ")).toMatch(kind);
  });

  it("records each verification made through withAuditTrail, hashing the text", async () => {
    await freshLog();
    const result: VerificationResult = {
      verdict: "pass",
      passed: true,
      coverage: 1,
      overallConfidence: 0.9,
      riskLevel: "low",
      layersRun: [],
      mitigations: [],
      totalLatencyMs: 4,
      costIncurred: 0,
      claims: [],
      skippedLayers: [],
      reasons: [],
    };
    const verify = withAuditTrail(() => Effect.succeed(result), log, "api-key-1");
    expect(
      await run(verify({ text: "Revenue was $48.2 million.", sources: ["Revenue: $48.2 million"] })),
    ).toBe(result);
    const [recorded] = await run(log.entries({ afterSequence: 5 }));
    expect(recorded).toMatchObject({ operation: "verification", actor: "api-key-1", confidence: 0.9 });
    expect(recorded?.inputHash).toBe(sha256Hex("Revenue was $48.2 million."));
    expect((await run(log.verify)).intact).toBe(true);
  });

  it("refuses an invalid entry with an InputError and appends nothing", async () => {
    await freshLog();
    const bad = { ...entry(1), inputHash: "not-a-hash" };
    const exit = await Effect.runPromiseExit(log.append(bad));
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toMatch(/InputError/);
    expect((await run(log.verify)).checked).toBe(5);
  });

  it("appends after the head it wrote in one statement, with no transaction, once it knows that head", async () => {
    await freshLog();
    let queries = 0;
    let transactions = 0;
    const counting: SqlClientService = {
      ...client,
      query: (sql, params) => {
        queries += 1;
        return client.query(sql, params);
      },
      transaction: (body) => {
        transactions += 1;
        return client.transaction(body);
      },
    };
    const counted = await run(makeAuditLog(counting));
    [queries, transactions] = [0, 0]; // past the migration check
    await run(counted.appendMany([entry(6), entry(7)])); // it has not seen the head yet: the locked path
    expect(transactions).toBe(1);
    [queries, transactions] = [0, 0];
    await run(counted.appendMany([entry(8), entry(9), entry(10)]));
    expect({ queries, transactions }).toEqual({ queries: 1, transactions: 0 });
    const report = await run(counted.verify);
    expect(report).toMatchObject({ intact: true, checked: 10 });
  });

  it("stores through the one-call append every character an array literal quotes, and a missing confidence, as written", async () => {
    await freshLog(); // five appends: the log knows its head, so the next batch takes the one-call append
    const awkward = [
      'say "NULL"',
      "back\\slash",
      "{braces}, commas",
      "NULL",
      "",
      "line\nbreak\ttab",
      "ünïcödé ✓",
    ];
    const appends = awkward.map((text, index) =>
      auditEntryForOperation({
        operation: "verification",
        actor: text === "" ? "user" : text,
        input: text,
        output: { text },
        ...(index % 2 === 0 ? {} : { confidence: 0.25 }),
        metadata: { text, list: [text, null, { [text || "empty"]: text }] },
      }),
    );
    const written = await run(log.appendMany(appends));
    const read = await run(log.entries({ afterSequence: 5 }));
    expect(read).toEqual(written);
    expect(read.map((stored) => [stored.actor, stored.confidence])).toEqual(
      awkward.map((text, index) => [text === "" ? "user" : text, index % 2 === 0 ? null : 0.25]),
    );
    expect(read.map((stored) => JSON.parse(stored.metadataJson).text)).toEqual(awkward);
    expect(await run(log.verify)).toMatchObject({ intact: true, checked: 5 + awkward.length });
  });

  it("keeps one unbroken chain when two logs on one database take turns and write at once", async () => {
    await freshLog();
    const other = await run(makeAuditLog(client));
    await run(other.append(entry(6)));
    await run(log.appendMany([entry(7), entry(8)])); // log's head (5) is stale: it must read the real one
    await run(other.append(entry(9))); // and so is other's (6)
    await run(
      Effect.all(
        [10, 11, 12, 13, 14, 15].map((index) => (index % 2 === 0 ? log : other).appendMany([entry(index)])),
        { concurrency: 6 },
      ),
    );
    const entries = await run(log.entries());
    expect(entries.map((stored) => stored.sequence)).toEqual(
      Array.from({ length: 15 }, (_, index) => index + 1),
    );
    expect(entries.map((stored) => stored.actor).slice(5, 9)).toEqual([
      "user-6",
      "user-7",
      "user-8",
      "user-9",
    ]);
    expect(await run(log.verify)).toMatchObject({ intact: true, checked: 15 });
  });

  it("never chains onto a head that was moved behind its back: it reads the head again", async () => {
    await freshLog();
    const third = await deleteAfterThirdAndRewindHead();
    const [appended] = await run(log.appendMany([entry(6)]));
    expect(appended).toMatchObject({ sequence: 4, previousHash: third.entryHash });
    expect(await run(log.verify)).toMatchObject({ intact: true, checked: 4 });
  });
});
