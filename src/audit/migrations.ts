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
  {
    // The append of a writer that knows the chain's head, as one call: the head moves only if it is still
    // where the writer left it, and the rows go in only if it moved, so both happen or neither does. A
    // PL/pgSQL function plans its two statements once per connection and reuses the plans; the same work sent
    // as one statement (a CTE over a VALUES list as long as the batch) was parsed and planned on every append.
    // A whole append got 1.32-1.42x cheaper on the embedded database (docs/BENCHMARKS.md, 2026-11-27). The
    // rows come as one array per column, so the call's text is the same whatever the batch's length. Returns
    // how many rows went in: 0 when the head was elsewhere.
    version: 2,
    sql: `
      CREATE OR REPLACE FUNCTION veracity_audit_append(
        expected_sequence bigint,
        expected_hash text,
        new_sequences bigint[],
        new_entry_ids text[],
        new_recorded_ats text[],
        new_operations text[],
        new_actors text[],
        new_input_hashes text[],
        new_output_hashes text[],
        new_citations_verified integer[],
        new_citations_failed integer[],
        new_confidences double precision[],
        new_execution_times double precision[],
        new_metadata_jsons text[],
        new_previous_hashes text[],
        new_entry_hashes text[]
      ) RETURNS integer LANGUAGE plpgsql AS $append$
      BEGIN
        UPDATE veracity_audit_head
           SET sequence = new_sequences[cardinality(new_sequences)],
               entry_hash = new_entry_hashes[cardinality(new_entry_hashes)]
         WHERE id = 1 AND sequence = expected_sequence AND entry_hash = expected_hash;
        IF NOT FOUND THEN
          RETURN 0;
        END IF;
        INSERT INTO veracity_audit_log (
          sequence, entry_id, recorded_at, operation, actor, input_hash, output_hash, citations_verified,
          citations_failed, confidence, execution_time_ms, metadata_json, previous_hash, entry_hash
        )
        SELECT * FROM unnest(
          new_sequences, new_entry_ids, new_recorded_ats, new_operations, new_actors, new_input_hashes,
          new_output_hashes, new_citations_verified, new_citations_failed, new_confidences, new_execution_times,
          new_metadata_jsons, new_previous_hashes, new_entry_hashes
        );
        RETURN cardinality(new_sequences);
      END
      $append$;
    `,
  },
];
