import { createHash } from "node:crypto";
import { Effect, Schema } from "effect";
import { StorageError } from "../../../storage/errors.js";
import type { SqlExecutor } from "../../../storage/sql-client.js";

/**
 * A fingerprint of the transactions of a block range: equal checksums mean the same transactions with the
 * same sender, recipient, value and time. Hashes alone would miss a record whose attributes drifted, which is
 * what a claim is compared with.
 */
export interface BlockRangeChecksum {
  readonly fromBlock: string;
  readonly toBlock: string;
  readonly transactionCount: number;
  /** md5 of the ordered transaction records `hash:from:to:value:timestamp` (PostgreSQL `md5(string_agg(...))`). */
  readonly hashAggregate: string;
  readonly minTimestamp: string | null;
  readonly maxTimestamp: string | null;
  /**
   * sha256 of `count:aggregate:min:max` (`null` for a missing time bound): one value that two stores holding
   * the same range agree on.
   */
  readonly checksum: string;
}

const Row = Schema.Struct({
  transaction_count: Schema.Union(Schema.String, Schema.Number),
  hash_aggregate: Schema.NullOr(Schema.String),
  min_timestamp: Schema.NullOr(Schema.Union(Schema.String, Schema.Number)),
  max_timestamp: Schema.NullOr(Schema.Union(Schema.String, Schema.Number)),
});

const blockNumber = /^\d{1,18}$/;

/** Computes the checksum of blocks `[fromBlock, toBlock]` of an evidence store, in one query. */
export const blockRangeChecksum = (
  sql: SqlExecutor,
  fromBlock: string,
  toBlock: string,
): Effect.Effect<BlockRangeChecksum, StorageError> =>
  Effect.gen(function* () {
    if (!blockNumber.test(fromBlock) || !blockNumber.test(toBlock) || BigInt(fromBlock) > BigInt(toBlock))
      return yield* new StorageError({
        operation: "checksum",
        message: `invalid block range ${fromBlock}..${toBlock}`,
      });
    const rows = yield* sql.query(
      `SELECT count(*) AS transaction_count,
              md5(coalesce(string_agg(
                hash || ':' || from_address || ':' || coalesce(to_address, '') || ':' || value::text || ':' ||
                  coalesce(block_timestamp::text, ''),
                ',' ORDER BY block_number, hash), '')) AS hash_aggregate,
              min(block_timestamp) AS min_timestamp, max(block_timestamp) AS max_timestamp
       FROM evidence_transactions WHERE block_number BETWEEN $1::bigint AND $2::bigint`,
      [fromBlock, toBlock],
    );
    const row = yield* Schema.decodeUnknown(Row)(rows[0]).pipe(
      Effect.mapError((error) => new StorageError({ operation: "checksum", message: error.message })),
    );
    const count = Number(row.transaction_count);
    const min = row.min_timestamp === null ? null : String(row.min_timestamp);
    const max = row.max_timestamp === null ? null : String(row.max_timestamp);
    const aggregate = row.hash_aggregate ?? "";
    return {
      fromBlock,
      toBlock,
      transactionCount: count,
      hashAggregate: aggregate,
      minTimestamp: min,
      maxTimestamp: max,
      checksum: createHash("sha256").update(`${count}:${aggregate}:${min}:${max}`).digest("hex"),
    };
  });

/** What differs between two checksums of the same range (empty when the stores agree). */
export const compareChecksums = (left: BlockRangeChecksum, right: BlockRangeChecksum): string[] => {
  const differences: string[] = [];
  if (left.transactionCount !== right.transactionCount)
    differences.push(`transaction count ${left.transactionCount} vs ${right.transactionCount}`);
  if (left.hashAggregate !== right.hashAggregate) differences.push("transaction records differ");
  if (left.minTimestamp !== right.minTimestamp || left.maxTimestamp !== right.maxTimestamp)
    differences.push("time bounds differ");
  return differences;
};
