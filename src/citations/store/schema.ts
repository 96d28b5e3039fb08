import type { Migration } from "../../storage/migrations.js";

/** Tables of the evidence store. Hashes and addresses are stored lower-case; amounts as exact numerics. */
export const evidenceMigrations: readonly Migration[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE evidence_blocks (
        number bigint PRIMARY KEY,
        hash text,
        timestamp bigint,
        miner text,
        transaction_count integer
      );
      CREATE TABLE evidence_transactions (
        hash text PRIMARY KEY,
        block_number bigint NOT NULL,
        block_timestamp bigint,
        transaction_index integer,
        from_address text NOT NULL,
        to_address text,
        value numeric(78, 0) NOT NULL,
        receipt_status integer
      );
      CREATE INDEX evidence_transactions_block ON evidence_transactions (block_number);
      CREATE TABLE evidence_token_transfers (
        transaction_hash text NOT NULL,
        log_index integer NOT NULL,
        token_address text NOT NULL,
        from_address text NOT NULL,
        to_address text NOT NULL,
        value numeric(78, 0) NOT NULL,
        block_number bigint NOT NULL,
        block_timestamp bigint,
        PRIMARY KEY (transaction_hash, log_index)
      );
      CREATE TABLE evidence_addresses (
        address text PRIMARY KEY,
        role text NOT NULL
      );
    `,
  },
];

export const evidenceNamespace = "evidence";
