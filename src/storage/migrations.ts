import { createHash } from "node:crypto";
import { Effect } from "effect";
import { StorageError } from "./errors.js";
import type { SqlClientService, SqlExecutor } from "./sql-client.js";

export interface Migration {
  /** Positive integer, unique within a namespace; migrations run in ascending order. */
  readonly version: number;
  readonly sql: string;
}

export interface MigrationOutcome {
  readonly namespace: string;
  readonly applied: readonly number[];
}

const namespacePattern = /^[a-z][a-z0-9_.-]{0,62}$/;
/** Every process migrating the same database takes this transaction-level advisory lock first. */
const advisoryLockKey = 0x7665_7261; // "vera"

const checksumOf = (sql: string): string => createHash("sha256").update(sql).digest("hex");

const invalid = (message: string) => new StorageError({ operation: "migrate", message });

const validate = (
  namespace: string,
  migrations: readonly Migration[],
): Effect.Effect<Migration[], StorageError> => {
  if (!namespacePattern.test(namespace))
    return Effect.fail(invalid(`invalid migration namespace: ${namespace}`));
  const seen = new Set<number>();
  for (const migration of migrations) {
    if (!Number.isSafeInteger(migration.version) || migration.version <= 0)
      return Effect.fail(invalid(`${namespace}: migration version must be a positive integer`));
    if (seen.has(migration.version))
      return Effect.fail(invalid(`${namespace}: duplicate migration version ${migration.version}`));
    seen.add(migration.version);
  }
  return Effect.succeed([...migrations].sort((a, b) => a.version - b.version));
};

const applyPending = (tx: SqlExecutor, namespace: string, migrations: readonly Migration[]) =>
  Effect.gen(function* () {
    yield* tx.executeScript(
      `CREATE TABLE IF NOT EXISTS veracity_migrations (
        namespace text NOT NULL,
        version integer NOT NULL,
        checksum text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (namespace, version)
      )`,
    );
    const rows = yield* tx.query<{ version: number; checksum: string }>(
      "SELECT version, checksum FROM veracity_migrations WHERE namespace = $1",
      [namespace],
    );
    const appliedChecksums = new Map(rows.map((row) => [row.version, row.checksum]));
    const applied: number[] = [];
    for (const migration of migrations) {
      const checksum = checksumOf(migration.sql);
      const previous = appliedChecksums.get(migration.version);
      if (previous !== undefined) {
        if (previous !== checksum)
          return yield* Effect.fail(
            invalid(`${namespace}: migration ${migration.version} was changed after it was applied`),
          );
        continue;
      }
      yield* tx.executeScript(migration.sql);
      yield* tx.query("INSERT INTO veracity_migrations (namespace, version, checksum) VALUES ($1, $2, $3)", [
        namespace,
        migration.version,
        checksum,
      ]);
      applied.push(migration.version);
    }
    return applied;
  });

/**
 * Brings `namespace` up to date: runs, in one transaction, every migration not yet recorded in
 * `veracity_migrations`. Idempotent; on PostgreSQL concurrent runners wait on an advisory lock, and PGlite
 * serializes transactions within its process. A migration edited after it was applied is refused.
 */
export const runMigrations = (
  client: SqlClientService,
  namespace: string,
  migrations: readonly Migration[],
): Effect.Effect<MigrationOutcome, StorageError> =>
  Effect.gen(function* () {
    const ordered = yield* validate(namespace, migrations);
    const applied = yield* client.transaction((tx) =>
      Effect.gen(function* () {
        if (client.dialect === "postgres")
          yield* tx.query("SELECT pg_advisory_xact_lock($1)", [advisoryLockKey]);
        return yield* applyPending(tx, namespace, ordered);
      }),
    );
    return { namespace, applied };
  }).pipe(
    Effect.mapError((error) =>
      error.operation === "migrate"
        ? error
        : new StorageError({ operation: "migrate", message: error.message }),
    ),
  );
