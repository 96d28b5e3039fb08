import { Effect, Schema } from "effect";
import type { InputError } from "../../../model/errors.js";
import { StorageError } from "../../../storage/errors.js";
import { runMigrations } from "../../../storage/migrations.js";
import { openSqlClient } from "../../../storage/open.js";
import type { SqlClientService } from "../../../storage/sql-client.js";
import { type ImportOptions, type ImportSummary, importEthereumEtl } from "./import-ethereum-etl.js";
import { BlockRecord, TokenTransferRecord, TransactionRecord } from "./records.js";
import { evidenceMigrations, evidenceNamespace } from "./schema.js";

/** Most values sent in one `= ANY($1)` lookup; longer lists are split. */
export const lookupChunkSize = 5000;

/** The evidence store: on-chain records the citations of a text are checked against. */
export interface EvidenceStore {
  readonly sql: SqlClientService;
  /** Batched lookups: one query per chunk of values, keyed by the lower-case value. */
  readonly findTransactions: (
    hashes: readonly string[],
  ) => Effect.Effect<ReadonlyMap<string, TransactionRecord>, StorageError>;
  readonly findBlocks: (
    numbers: readonly string[],
  ) => Effect.Effect<ReadonlyMap<string, BlockRecord>, StorageError>;
  readonly findAddresses: (addresses: readonly string[]) => Effect.Effect<ReadonlySet<string>, StorageError>;
  readonly findTokenTransfers: (
    transactionHashes: readonly string[],
  ) => Effect.Effect<ReadonlyMap<string, readonly TokenTransferRecord[]>, StorageError>;
  readonly importEthereumEtl: (
    directory: string,
    options?: ImportOptions,
  ) => Effect.Effect<ImportSummary, StorageError | InputError>;
  readonly close: Effect.Effect<void, StorageError>;
}

const chunks = <A>(values: readonly A[]): A[][] => {
  const unique = [...new Set(values)];
  const result: A[][] = [];
  for (let start = 0; start < unique.length; start += lookupChunkSize)
    result.push(unique.slice(start, start + lookupChunkSize));
  return result;
};

const decodeRows =
  <A, I>(schema: Schema.Schema<A, I>) =>
  (rows: readonly unknown[]) =>
    Schema.decodeUnknown(Schema.Array(schema))(rows).pipe(
      Effect.mapError(
        (error) =>
          new StorageError({ operation: "query", message: `unexpected evidence row: ${error.message}` }),
      ),
    );

const lookup = <A, I>(
  sql: SqlClientService,
  statement: string,
  schema: Schema.Schema<A, I>,
  values: readonly string[],
): Effect.Effect<A[], StorageError> =>
  Effect.forEach(
    chunks(values),
    (chunk) => Effect.flatMap(sql.query(statement, [chunk]), decodeRows(schema)),
    {
      concurrency: 1,
    },
  ).pipe(Effect.map((parts) => parts.flat()));

/** Wraps an open SQL client (already migrated) as an evidence store. */
export const evidenceStoreOf = (sql: SqlClientService): EvidenceStore => ({
  sql,
  findTransactions: (hashes) =>
    lookup(
      sql,
      `SELECT hash, block_number, block_timestamp, from_address, to_address, value::text AS value
       FROM evidence_transactions WHERE hash = ANY($1::text[])`,
      TransactionRecord,
      hashes.map((hash) => hash.toLowerCase()),
    ).pipe(Effect.map((records) => new Map(records.map((record) => [record.hash, record])))),
  findBlocks: (numbers) =>
    lookup(
      sql,
      "SELECT number, hash, timestamp FROM evidence_blocks WHERE number = ANY($1::bigint[])",
      BlockRecord,
      numbers.filter((number) => /^\d{1,18}$/.test(number)),
    ).pipe(Effect.map((records) => new Map(records.map((record) => [record.number, record])))),
  findAddresses: (addresses) =>
    Effect.map(
      lookup(
        sql,
        "SELECT address FROM evidence_addresses WHERE address = ANY($1::text[])",
        Schema.Struct({ address: Schema.String }),
        addresses.map((address) => address.toLowerCase()),
      ),
      (rows) => new Set(rows.map((row) => row.address)),
    ),
  findTokenTransfers: (transactionHashes) =>
    lookup(
      sql,
      `SELECT transaction_hash, log_index, token_address, from_address, to_address, value::text AS value, block_number
       FROM evidence_token_transfers WHERE transaction_hash = ANY($1::text[]) ORDER BY transaction_hash, log_index`,
      TokenTransferRecord,
      transactionHashes.map((hash) => hash.toLowerCase()),
    ).pipe(
      Effect.map((records) => {
        const byTransaction = new Map<string, TokenTransferRecord[]>();
        for (const record of records) {
          const list = byTransaction.get(record.transaction_hash) ?? [];
          list.push(record);
          byTransaction.set(record.transaction_hash, list);
        }
        return byTransaction;
      }),
    ),
  importEthereumEtl: (directory, options) =>
    sql.transaction((tx) => importEthereumEtl(tx, directory, options)),
  close: sql.close,
});

/** Opens (and migrates) the evidence store at a PostgreSQL URL or a PGlite directory (`memory://` for tests). */
export const openEvidenceStore = (target: string): Effect.Effect<EvidenceStore, StorageError> =>
  Effect.gen(function* () {
    const sql = yield* openSqlClient(target);
    yield* runMigrations(sql, evidenceNamespace, evidenceMigrations).pipe(
      Effect.tapError(() => Effect.ignore(sql.close)),
    );
    return evidenceStoreOf(sql);
  });

/** Migrates an already open SQL client for evidence (tests use the storage backends). */
export const prepareEvidenceStore = (sql: SqlClientService): Effect.Effect<EvidenceStore, StorageError> =>
  Effect.as(runMigrations(sql, evidenceNamespace, evidenceMigrations), evidenceStoreOf(sql));
