import type { Migration } from "../../../storage/migrations.js";

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
  {
    // Token metadata (amounts in claims are in whole tokens), the per-address indexes of the aggregates,
    // and the logs, receipts and traces of an ethereum-etl export.
    version: 2,
    sql: `
      CREATE TABLE evidence_tokens (
        address text PRIMARY KEY,
        symbol text,
        name text,
        decimals integer
      );
      CREATE INDEX evidence_tokens_symbol ON evidence_tokens (upper(symbol));
      CREATE INDEX evidence_token_transfers_to ON evidence_token_transfers (to_address, block_number);
      CREATE INDEX evidence_token_transfers_from ON evidence_token_transfers (from_address, block_number);
      CREATE INDEX evidence_transactions_to ON evidence_transactions (to_address, block_number);
      CREATE INDEX evidence_transactions_from ON evidence_transactions (from_address, block_number);
      CREATE TABLE evidence_logs (
        transaction_hash text NOT NULL,
        log_index integer NOT NULL,
        block_number bigint NOT NULL,
        address text NOT NULL,
        topics text[] NOT NULL,
        data text,
        PRIMARY KEY (transaction_hash, log_index)
      );
      CREATE TABLE evidence_receipts (
        transaction_hash text PRIMARY KEY,
        block_number bigint NOT NULL,
        status integer,
        gas_used numeric(78, 0),
        contract_address text
      );
      CREATE TABLE evidence_traces (
        trace_id text PRIMARY KEY,
        transaction_hash text,
        block_number bigint NOT NULL,
        from_address text,
        to_address text,
        value numeric(78, 0),
        trace_type text,
        status integer,
        error text
      );
      CREATE INDEX evidence_traces_transaction ON evidence_traces (transaction_hash);
    `,
  },
];

export const evidenceNamespace = "evidence";
