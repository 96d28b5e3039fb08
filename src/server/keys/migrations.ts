import type { Migration } from "../../storage/migrations.js";

export const serverMigrationNamespace = "server";

/** API keys (only their SHA-256 hash is stored) and the per-key rate-limit windows shared by every instance. */
export const serverMigrations: readonly Migration[] = [
  {
    version: 1,
    sql: `
CREATE TABLE IF NOT EXISTS veracity_server_api_keys (
  key_hash text PRIMARY KEY,
  user_id text NOT NULL,
  label text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);
CREATE INDEX IF NOT EXISTS veracity_server_api_keys_user ON veracity_server_api_keys (user_id);
CREATE TABLE IF NOT EXISTS veracity_server_rate_windows (
  key_hash text NOT NULL,
  window_start bigint NOT NULL,
  hits integer NOT NULL,
  PRIMARY KEY (key_hash, window_start)
);`,
  },
  {
    // A key is a person's ("user") or one the person gave an agent ("agent"); only a user key may say a claim
    // comes from a trusted source (the user, documentation...), which the memory gate stores without review.
    version: 2,
    sql: `ALTER TABLE veracity_server_api_keys ADD COLUMN IF NOT EXISTS kind text NOT NULL DEFAULT 'user';`,
  },
  {
    // Roles: the person's "user" keys become "reviewer" keys; a row written without a kind is an agent's.
    version: 3,
    sql: `UPDATE veracity_server_api_keys SET kind = 'reviewer' WHERE kind = 'user';
ALTER TABLE veracity_server_api_keys ALTER COLUMN kind SET DEFAULT 'agent';`,
  },
];
