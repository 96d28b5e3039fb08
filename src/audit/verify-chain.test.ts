import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type AuditEntry, genesisHash } from "./entry.js";
import { hashAuditEntry } from "./hash.js";
import { verifyAuditChain } from "./verify-chain.js";

const chainOf = (length: number): AuditEntry[] => {
  const entries: AuditEntry[] = [];
  for (let sequence = 1; sequence <= length; sequence++) {
    const unsigned = {
      sequence,
      entryId: `entry-${sequence}`,
      recordedAt: new Date(Date.UTC(2026, 10, 22, 0, 0, sequence)).toISOString(),
      operation: sequence % 2 === 0 ? "verification" : "review",
      actor: "tester",
      inputHash: "a".repeat(64),
      outputHash: "b".repeat(64),
      citationsVerified: sequence,
      citationsFailed: 0,
      confidence: 0.5,
      executionTimeMs: 3,
      metadataJson: "{}",
      previousHash: entries.at(-1)?.entryHash ?? genesisHash,
    };
    entries.push({ ...unsigned, entryHash: hashAuditEntry(unsigned) });
  }
  return entries;
};
const head = (entries: readonly AuditEntry[]) => {
  const last = entries.at(-1)!;
  return { sequence: last.sequence, entryHash: last.entryHash };
};

describe("verifyAuditChain", () => {
  it("accepts an untouched chain", () => {
    const entries = chainOf(8);
    expect(verifyAuditChain(entries, head(entries))).toEqual({
      intact: true,
      checked: 8,
      problemCount: 0,
      problems: [],
      last: head(entries),
    });
  });

  it("needs an anchor kept elsewhere to see a deleted tail whose head record was rewound too", () => {
    const original = chainOf(5);
    const anchor = head(original);
    const shortened = original.slice(0, 3);
    // The head record lives beside the log: rewound with the tail, the shorter chain looks whole.
    expect(verifyAuditChain(shortened, head(shortened)).intact).toBe(true);
    const report = verifyAuditChain(shortened, head(shortened), anchor);
    expect(report.intact).toBe(false);
    expect(report.problems).toEqual([
      { sequence: 5, kind: "truncated", message: "entry 5, recorded in the anchor, is no longer in the log" },
    ]);
    // A wiped log (entries and head gone) is caught the same way.
    expect(verifyAuditChain([], undefined, anchor).problems.map((problem) => problem.kind)).toEqual([
      "truncated",
    ]);
    expect(verifyAuditChain(original, anchor, anchor).intact).toBe(true);
  });

  it("catches a chain rebuilt from an edited entry onwards, hashes and head included, by the anchor", () => {
    const original = chainOf(4);
    const rebuilt: AuditEntry[] = [];
    for (const entry of original) {
      const { entryHash: _, ...unsigned } = {
        ...entry,
        actor: entry.sequence === 2 ? "mallory" : entry.actor,
        previousHash: rebuilt.at(-1)?.entryHash ?? genesisHash,
      };
      rebuilt.push({ ...unsigned, entryHash: hashAuditEntry(unsigned) });
    }
    expect(verifyAuditChain(rebuilt, head(rebuilt)).intact).toBe(true);
    const report = verifyAuditChain(rebuilt, head(rebuilt), head(original));
    expect(report.problems.map((problem) => [problem.sequence, problem.kind])).toEqual([
      [4, "anchor-mismatch"],
    ]);
  });

  it("detects any single edit, deletion or reordering of any entry", () => {
    const tamper = fc.oneof(
      fc.record({
        kind: fc.constant("edit" as const),
        field: fc.constantFrom(
          "actor",
          "confidence",
          "recordedAt",
          "metadataJson",
          "previousHash",
          "sequence",
        ),
      }),
      fc.record({ kind: fc.constant("delete" as const) }),
      fc.record({ kind: fc.constant("swap" as const) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 12 }), fc.nat(), tamper, (length, at, change) => {
        const original = chainOf(length);
        const index = at % length;
        const entries = [...original];
        if (change.kind === "delete") entries.splice(index, 1);
        else if (change.kind === "swap") {
          const other = (index + 1) % length;
          [entries[index], entries[other]] = [entries[other]!, entries[index]!];
        } else {
          const target = entries[index]!;
          const edited: Record<string, unknown> = { ...target };
          edited[change.field] =
            change.field === "confidence"
              ? 0.99
              : change.field === "sequence"
                ? target.sequence + 100
                : `${String(target[change.field])}x`;
          entries[index] = edited as unknown as AuditEntry;
        }
        expect(verifyAuditChain(entries, head(original)).intact).toBe(false);
      }),
      { numRuns: 300, seed: 8 },
    );
  });

  it("detects an edited entry whose hash was recomputed, by the next entry's broken link", () => {
    const entries = chainOf(4);
    const { entryHash: _, ...unsigned } = { ...entries[1]!, actor: "mallory" };
    entries[1] = { ...unsigned, entryHash: hashAuditEntry(unsigned) };
    const report = verifyAuditChain(entries, head(chainOf(4)));
    expect(report.problems.map((problem) => [problem.sequence, problem.kind])).toContainEqual([
      3,
      "broken-link",
    ]);
  });
});
