import type { Migration } from "../storage/migrations.js";

export const auditMigrationNamespace = "audit";

/**
 * The log and its head. Entries are only ever inserted; the hash chain, not the database's permissions, is
 * what makes an edit, a deletion or a reordering visible. The head row is updated in the same transaction as
 * each insert, so a deleted tail shows too.
 */
export const auditMigrations: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE veracity_audit_log (
        sequence bigint PRIMARY KEY,
        entry_id text NOT NULL UNIQUE,
        recorded_at text NOT NULL,
        operation text NOT NULL,
        actor text NOT NULL,
        input_hash text NOT NULL,
        output_hash text NOT NULL,
        citations_verified integer NOT NULL,
        citations_failed integer NOT NULL,
        confidence double precision,
        execution_time_ms double precision NOT NULL,
        metadata_json text NOT NULL,
        previous_hash text NOT NULL,
        entry_hash text NOT NULL
      );
      CREATE TABLE veracity_audit_head (
        id integer PRIMARY KEY CHECK (id = 1),
        sequence bigint NOT NULL,
        entry_hash text NOT NULL
      );
    `,
  },
];
