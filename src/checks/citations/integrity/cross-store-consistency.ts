import { Effect, Schema } from "effect";
import { StorageError } from "../../../storage/errors.js";
import type { EvidenceStore } from "../store/evidence-store.js";
import { TransactionRecord } from "../store/records.js";

export interface ConsistencyMismatch {
  readonly hash: string;
  /** `missing` from the other store, or the attribute that differs. */
  readonly problem: "missing" | "sender" | "recipient" | "value" | "block";
}

export interface ConsistencyReport {
  readonly totalChecked: number;
  readonly missing: number;
  readonly mismatched: number;
  /** The first 50 problems found. */
  readonly mismatches: readonly ConsistencyMismatch[];
  /** 1 - (missing + mismatched) / checked; 1 when nothing was sampled. */
  readonly consistencyScore: number;
}

export const maxConsistencySample = 100_000;

/**
 * Samples up to `sampleSize` transactions of `source` at random and looks each up in `target` (one batched
 * query per 5,000): a transaction the other store lacks, or records with a different sender, recipient,
 * value or block, count against the score. One evidence store plays the part of the three databases a
 * multi-store design would have to keep in step; this check compares two copies of it (PGlite and
 * PostgreSQL, or two imports).
 */
export const checkCrossStoreConsistency = (
  source: EvidenceStore,
  target: EvidenceStore,
  sampleSize: number,
): Effect.Effect<ConsistencyReport, StorageError> =>
  Effect.gen(function* () {
    if (!Number.isSafeInteger(sampleSize) || sampleSize < 1 || sampleSize > maxConsistencySample)
      return yield* new StorageError({
        operation: "consistency",
        message: `sample size must be a whole number from 1 to ${maxConsistencySample}`,
      });
    const rows = yield* source.sql.query(
      `SELECT hash, block_number, block_timestamp, from_address, to_address, value::text AS value
       FROM evidence_transactions ORDER BY random() LIMIT $1`,
      [sampleSize],
    );
    const sampled = yield* Schema.decodeUnknown(Schema.Array(TransactionRecord))(rows).pipe(
      Effect.mapError((error) => new StorageError({ operation: "consistency", message: error.message })),
    );
    const found = yield* target.findTransactions(sampled.map((record) => record.hash));
    const mismatches: ConsistencyMismatch[] = [];
    let missing = 0;
    let mismatched = 0;
    for (const record of sampled) {
      const other = found.get(record.hash);
      const problem: ConsistencyMismatch["problem"] | undefined =
        other === undefined
          ? "missing"
          : other.from_address !== record.from_address
            ? "sender"
            : other.to_address !== record.to_address
              ? "recipient"
              : other.value !== record.value
                ? "value"
                : other.block_number !== record.block_number
                  ? "block"
                  : undefined;
      if (problem === undefined) continue;
      if (problem === "missing") missing += 1;
      else mismatched += 1;
      if (mismatches.length < 50) mismatches.push({ hash: record.hash, problem });
    }
    const total = sampled.length;
    return {
      totalChecked: total,
      missing,
      mismatched,
      mismatches,
      consistencyScore: total === 0 ? 1 : 1 - (missing + mismatched) / total,
    };
  });
