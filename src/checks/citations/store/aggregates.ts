import { Effect, Schema } from "effect";
import { groupBy } from "../../../model/group-by.js";
import { StorageError } from "../../../storage/errors.js";
import type { SqlExecutor } from "../../../storage/sql-client.js";

/** What the store knows of a token: its symbol and decimals may be unknown (a non-standard contract). */
export const TokenRecord = Schema.Struct({
  address: Schema.String,
  symbol: Schema.NullOr(Schema.String),
  decimals: Schema.NullOr(Schema.Number),
});
export type TokenRecord = typeof TokenRecord.Type;

/**
 * "Address A received (or sent) N of token T in blocks R": the per-address aggregate a claim about an
 * address's activity is compared with. `recipient` and `sender` narrow the transfers; at least one is set.
 * `token` is a token contract, or `ether` for the value of plain transactions.
 */
export interface AddressFlowQuery {
  readonly recipient?: string;
  readonly sender?: string;
  readonly token: string | "ether";
  readonly fromBlock?: string;
  readonly toBlock?: string;
}

export interface AddressFlow {
  readonly query: AddressFlowQuery;
  /** Sum of the raw amounts (wei, or the token's smallest unit), exact. */
  readonly total: string;
  readonly transfers: number;
}

const FlowRow = Schema.Struct({
  total: Schema.NullOr(Schema.Union(Schema.String, Schema.Number)),
  transfers: Schema.Union(Schema.String, Schema.Number),
});

const decodeError = (operation: string) => (error: { message: string }) =>
  new StorageError({ operation, message: `unexpected evidence row: ${error.message}` });

const blockPattern = /^\d{1,18}$/;
const addressPattern = /^0x[0-9a-f]{40}$/;

/** Sums the transfers of one address flow in one query (an index on recipient or sender and block). */
export const sumAddressFlow = (
  sql: SqlExecutor,
  query: AddressFlowQuery,
): Effect.Effect<AddressFlow, StorageError> =>
  Effect.gen(function* () {
    const invalid = (message: string) => new StorageError({ operation: "aggregate", message });
    if (query.recipient === undefined && query.sender === undefined)
      return yield* invalid("an address flow needs a recipient or a sender");
    for (const address of [query.recipient, query.sender, query.token === "ether" ? undefined : query.token])
      if (address !== undefined && !addressPattern.test(address))
        return yield* invalid(`not a lower-case address: ${address}`);
    for (const block of [query.fromBlock, query.toBlock])
      if (block !== undefined && !blockPattern.test(block))
        return yield* invalid(`not a block number: ${block}`);
    const ether = query.token === "ether";
    const conditions: string[] = [];
    const parameters: (string | null)[] = [];
    const add = (condition: string, value: string) => {
      parameters.push(value);
      conditions.push(condition.replace("?", `$${parameters.length}`));
    };
    if (query.recipient !== undefined) add("to_address = ?", query.recipient);
    if (query.sender !== undefined) add("from_address = ?", query.sender);
    if (!ether) add("token_address = ?", query.token);
    if (query.fromBlock !== undefined) add("block_number >= ?::bigint", query.fromBlock);
    if (query.toBlock !== undefined) add("block_number <= ?::bigint", query.toBlock);
    const table = ether ? "evidence_transactions" : "evidence_token_transfers";
    const rows = yield* sql.query(
      `SELECT sum(value)::text AS total, count(*) AS transfers FROM ${table} WHERE ${conditions.join(" AND ")}`,
      parameters,
    );
    const row = yield* Schema.decodeUnknown(FlowRow)(rows[0]).pipe(Effect.mapError(decodeError("aggregate")));
    return { query, total: row.total === null ? "0" : String(row.total), transfers: Number(row.transfers) };
  });

/** Tokens by upper-case symbol: every contract of the store whose symbol is one of `symbols`. */
export const findTokensBySymbol = (
  sql: SqlExecutor,
  symbols: readonly string[],
): Effect.Effect<ReadonlyMap<string, readonly TokenRecord[]>, StorageError> =>
  symbols.length === 0
    ? Effect.succeed(new Map())
    : Effect.gen(function* () {
        const wanted = [...new Set(symbols.map((symbol) => symbol.toUpperCase()))].slice(0, 1000);
        const rows = yield* sql.query(
          `SELECT address, symbol, decimals FROM evidence_tokens WHERE upper(symbol) = ANY($1::text[])
           ORDER BY address LIMIT 10000`,
          [wanted],
        );
        const tokens = yield* Schema.decodeUnknown(Schema.Array(TokenRecord))(rows).pipe(
          Effect.mapError(decodeError("query")),
        );
        return groupBy(tokens, (token) => (token.symbol ?? "").toUpperCase());
      });

/**
 * Transactions the store knows only from a receipt, a trace or a log (an export without its transactions
 * file), with the block they are in.
 */
export const findTransactionTraces = (
  sql: SqlExecutor,
  hashes: readonly string[],
): Effect.Effect<
  ReadonlyMap<string, { readonly block_number: string; readonly known_from: string }>,
  StorageError
> =>
  hashes.length === 0
    ? Effect.succeed(new Map())
    : Effect.gen(function* () {
        const rows = yield* sql.query(
          `SELECT transaction_hash AS hash, block_number::text AS block_number, 'receipt' AS known_from
             FROM evidence_receipts WHERE transaction_hash = ANY($1::text[])
           UNION ALL SELECT transaction_hash, block_number::text, 'trace' FROM evidence_traces
             WHERE transaction_hash = ANY($1::text[])
           UNION ALL SELECT transaction_hash, block_number::text, 'log' FROM evidence_logs
             WHERE transaction_hash = ANY($1::text[])`,
          [[...new Set(hashes.map((hash) => hash.toLowerCase()))].slice(0, 5000)],
        );
        const decoded = yield* Schema.decodeUnknown(
          Schema.Array(
            Schema.Struct({ hash: Schema.String, block_number: Schema.String, known_from: Schema.String }),
          ),
        )(rows).pipe(Effect.mapError(decodeError("query")));
        const found = new Map<string, { block_number: string; known_from: string }>();
        for (const row of decoded) if (!found.has(row.hash)) found.set(row.hash, row);
        return found;
      });
