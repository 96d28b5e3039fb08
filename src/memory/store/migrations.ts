import type { Migration } from "../../storage/migrations.js";

export const memoryMigrationNamespace = "memory";

/**
 * One schema for PGlite and PostgreSQL. `origin_queue_id` is unique: a review item becomes at most one
 * memory, whatever the concurrency. `lsh_bands` holds the MinHash band keys the duplicate check looks up.
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
];
