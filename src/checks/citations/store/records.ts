import { Schema } from "effect";

/** Integer columns arrive as strings (int8, numeric) or numbers (int4) depending on the type: keep strings. */
const IntegerText = Schema.Union(Schema.String, Schema.Number).pipe(
  Schema.transform(Schema.String, { decode: (value) => String(value), encode: (value) => value }),
);

export const TransactionRecord = Schema.Struct({
  hash: Schema.String,
  block_number: IntegerText,
  block_timestamp: Schema.NullOr(IntegerText),
  from_address: Schema.String,
  to_address: Schema.NullOr(Schema.String),
  /** Wei, exact. */
  value: IntegerText,
});
export type TransactionRecord = typeof TransactionRecord.Type;

export const TokenTransferRecord = Schema.Struct({
  transaction_hash: Schema.String,
  log_index: Schema.Number,
  token_address: Schema.String,
  from_address: Schema.String,
  to_address: Schema.String,
  /** Raw token units, exact. */
  value: IntegerText,
  block_number: IntegerText,
});
export type TokenTransferRecord = typeof TokenTransferRecord.Type;

export const BlockRecord = Schema.Struct({
  number: IntegerText,
  hash: Schema.NullOr(Schema.String),
  timestamp: Schema.NullOr(IntegerText),
});
export type BlockRecord = typeof BlockRecord.Type;
