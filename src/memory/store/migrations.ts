import type { Migration } from "../../storage/migrations.js";

export const memoryMigrationNamespace = "memory";

/**
 * One schema for PGlite and PostgreSQL. `origin_queue_id` is unique: a review item becomes at most one
 * memory, whatever the concurrency. `veracity_memory_bands` holds the MinHash band keys the duplicate check
 * looks up; `veracity_memory_counts` the number of memories per user, for the limit.
 */
export const memoryMigrations: readonly Migration[] = [
  {
    version: 1,
    sql: `
CREATE TABLE veracity_memories (
  id text PRIMARY KEY,
  user_id text NOT NULL,
  content text NOT NULL,
  memory_type text NOT NULL,
  source text NOT NULL,
  evidence jsonb NOT NULL,
  valid_until timestamptz,
  created_at timestamptz NOT NULL,
  origin_queue_id text UNIQUE,
  lsh_bands bigint[] NOT NULL DEFAULT '{}',
  search_vector tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED
);
CREATE INDEX veracity_memories_user ON veracity_memories (user_id, created_at);
CREATE INDEX veracity_memories_search ON veracity_memories USING gin (search_vector);
CREATE INDEX veracity_memories_bands ON veracity_memories USING gin (lsh_bands);
CREATE INDEX veracity_memories_valid_until ON veracity_memories (valid_until) WHERE valid_until IS NOT NULL;

CREATE TABLE veracity_review_queue (
  queue_id text PRIMARY KEY,
  user_id text NOT NULL,
  content text NOT NULL,
  memory_type text NOT NULL,
  source text NOT NULL,
  evidence jsonb NOT NULL,
  validation jsonb NOT NULL,
  submitted_at timestamptz NOT NULL
);
CREATE INDEX veracity_review_queue_user ON veracity_review_queue (user_id, submitted_at);

CREATE TABLE veracity_memory_audit (
  seq bigserial PRIMARY KEY,
  action text NOT NULL,
  actor text NOT NULL,
  user_id text NOT NULL,
  queue_id text,
  memory_id text,
  reason text,
  at timestamptz NOT NULL
);
CREATE INDEX veracity_memory_audit_user ON veracity_memory_audit (user_id, seq);
`,
  },
  {
    // Band keys move to their own B-tree-indexed table (the planner chose a sequential scan over the GIN
    // array index), and a per-user counter replaces counting rows on every insert.
    version: 2,
    sql: `
CREATE TABLE veracity_memory_bands (
  user_id text NOT NULL,
  band_key bigint NOT NULL,
  memory_id text NOT NULL REFERENCES veracity_memories (id) ON DELETE CASCADE
);
CREATE INDEX veracity_memory_bands_lookup ON veracity_memory_bands (user_id, band_key);
CREATE INDEX veracity_memory_bands_memory ON veracity_memory_bands (memory_id);
INSERT INTO veracity_memory_bands (user_id, band_key, memory_id)
  SELECT user_id, unnest(lsh_bands), id FROM veracity_memories;
DROP INDEX veracity_memories_bands;
ALTER TABLE veracity_memories DROP COLUMN lsh_bands;

CREATE TABLE veracity_memory_counts (
  user_id text PRIMARY KEY,
  n integer NOT NULL CHECK (n >= 0)
);
INSERT INTO veracity_memory_counts (user_id, n)
  SELECT user_id, count(*)::int FROM veracity_memories GROUP BY user_id;
`,
  },
];
