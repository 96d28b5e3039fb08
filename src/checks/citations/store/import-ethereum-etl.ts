import { existsSync } from "node:fs";
import path from "node:path";
import { Effect } from "effect";
import { InputError } from "../../../model/errors.js";
import type { StorageError } from "../../../storage/errors.js";
import type { SqlExecutor, SqlParameter } from "../../../storage/sql-client.js";
import { readEtlRows } from "./etl-files.js";
import { RowReader } from "./etl-rows.js";

export interface ImportOptions {
  /** Most rows read from one file (default 5,000,000). */
  readonly maxRowsPerFile?: number;
}

export interface ImportSummary {
  readonly directory: string;
  /** Rows read per table and rows rejected because a field was malformed. */
  readonly tables: Readonly<Record<string, { readonly read: number; readonly rejected: number }>>;
  /** The first few reasons for rejected rows. */
  readonly problems: readonly string[];
}

type Row = readonly (string | null)[];

interface TableImport {
  readonly file: string;
  readonly insert: string;
  readonly columns: number;
  readonly toRows: (reader: RowReader) => {
    main: Row[];
    blocks?: Row[];
    addresses: Row[];
    /** Token transfers read from another record (an ERC-20 `Transfer` log). */
    transfers?: Row[];
  };
}

const chunkSize = 1000;
const maxProblems = 20;

const blockInsert = `INSERT INTO evidence_blocks (number, hash, timestamp)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[]) ON CONFLICT (number) DO NOTHING`;
const addressInsert = `INSERT INTO evidence_addresses (address, role)
  SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT (address) DO NOTHING`;

const transferInsert = `INSERT INTO evidence_token_transfers
  (transaction_hash, log_index, token_address, from_address, to_address, value, block_number, block_timestamp)
  SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::numeric[],
    $7::bigint[], $8::bigint[]) ON CONFLICT (transaction_hash, log_index) DO NOTHING`;

/** keccak256("Transfer(address,address,uint256)"): the first topic of every ERC-20 and ERC-721 transfer log. */
export const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const paddedAddress = /^0x0{24}([0-9a-f]{40})$/;

/**
 * The ERC-20 transfer a log records, or undefined: three topics (the event, sender, recipient, both
 * left-padded addresses) and a 32-byte amount. ERC-721 transfers index the token id as a fourth topic and
 * are left out: they move an item, not an amount.
 */
const transferOfLog = (topics: readonly string[], data: string | null) => {
  if (topics.length !== 3 || topics[0] !== transferTopic || data === null || data.length !== 66)
    return undefined;
  const from = paddedAddress.exec(topics[1] ?? "")?.[1];
  const to = paddedAddress.exec(topics[2] ?? "")?.[1];
  if (from === undefined || to === undefined) return undefined;
  return { from: `0x${from}`, to: `0x${to}`, value: BigInt(data).toString() };
};

const smallInteger = (reader: RowReader, name: string): string | null => {
  try {
    const value = reader.optionalInteger(name);
    return value !== null && Number(value) <= 255 ? value : null;
  } catch {
    return null;
  }
};

const tables: readonly TableImport[] = [
  {
    file: "blocks",
    insert: `INSERT INTO evidence_blocks (number, hash, timestamp, miner, transaction_count)
      SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::int[])
      ON CONFLICT (number) DO UPDATE SET hash = EXCLUDED.hash, timestamp = EXCLUDED.timestamp,
        miner = EXCLUDED.miner, transaction_count = EXCLUDED.transaction_count`,
    columns: 5,
    toRows: (r) => {
      const miner = r.optionalAddress("miner");
      return {
        main: [
          [
            r.integer("number"),
            r.hash("hash"),
            r.integer("timestamp"),
            miner,
            r.optionalInteger("transaction_count"),
          ],
        ],
        addresses: miner === null ? [] : [[miner, "miner"]],
      };
    },
  },
  {
    file: "transactions",
    insert: `INSERT INTO evidence_transactions
      (hash, block_number, block_timestamp, transaction_index, from_address, to_address, value, receipt_status)
      SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::int[], $5::text[], $6::text[],
        $7::numeric[], $8::int[]) ON CONFLICT (hash) DO NOTHING`,
    columns: 8,
    toRows: (r) => {
      const from = r.address("from_address");
      const to = r.optionalAddress("to_address");
      const block = r.integer("block_number");
      const timestamp = r.optionalInteger("block_timestamp");
      return {
        main: [
          [
            r.hash("hash"),
            block,
            timestamp,
            r.optionalInteger("transaction_index"),
            from,
            to,
            r.integer("value"),
            r.optionalInteger("receipt_status"),
          ],
        ],
        blocks: [[block, r.optionalHash("block_hash"), timestamp]],
        addresses: [[from, "account"], ...(to === null ? [] : [[to, "account"]])],
      };
    },
  },
  {
    file: "token_transfers",
    insert: transferInsert,
    columns: 8,
    toRows: (r) => {
      const token = r.address("token_address");
      const from = r.address("from_address");
      const to = r.address("to_address");
      const block = r.integer("block_number");
      const timestamp = r.optionalInteger("block_timestamp");
      return {
        main: [
          [
            r.hash("transaction_hash"),
            r.integer("log_index"),
            token,
            from,
            to,
            r.integer("value"),
            block,
            timestamp,
          ],
        ],
        blocks: [[block, r.optionalHash("block_hash"), timestamp]],
        addresses: [
          [token, "token"],
          [from, "account"],
          [to, "account"],
        ],
      };
    },
  },
  {
    file: "contracts",
    insert: addressInsert,
    columns: 2,
    toRows: (r) => ({ main: [[r.address("address"), "contract"]], addresses: [] }),
  },
  {
    file: "tokens",
    insert: `INSERT INTO evidence_tokens (address, symbol, name, decimals)
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[])
      ON CONFLICT (address) DO UPDATE SET symbol = EXCLUDED.symbol, name = EXCLUDED.name,
        decimals = EXCLUDED.decimals`,
    columns: 4,
    toRows: (r) => {
      const address = r.address("address");
      const symbol = r.optionalText("symbol", 32);
      return {
        // Malformed metadata (an empty symbol, decimals that are no small number) is kept as unknown.
        main: [[address, symbol === "" ? null : symbol, r.optionalText("name"), smallInteger(r, "decimals")]],
        addresses: [[address, "token"]],
      };
    },
  },
  {
    file: "logs",
    insert: `INSERT INTO evidence_logs (transaction_hash, log_index, block_number, address, topics, data)
      SELECT h, i, b, a, string_to_array(t, ','), d
      FROM unnest($1::text[], $2::int[], $3::bigint[], $4::text[], $5::text[], $6::text[]) AS u(h, i, b, a, t, d)
      ON CONFLICT (transaction_hash, log_index) DO NOTHING`,
    columns: 6,
    toRows: (r) => {
      const hash = r.hash("transaction_hash");
      const index = r.integer("log_index");
      const block = r.integer("block_number");
      const address = r.address("address");
      const topics = r.topics("topics");
      const data = r.optionalHexData("data");
      const transfer = transferOfLog(topics, data);
      return {
        main: [[hash, index, block, address, topics.join(","), data]],
        blocks: [[block, r.optionalHash("block_hash"), null]],
        addresses: [
          [address, transfer === undefined ? "contract" : "token"],
          ...(transfer === undefined
            ? []
            : [
                [transfer.from, "account"],
                [transfer.to, "account"],
              ]),
        ],
        ...(transfer === undefined
          ? {}
          : {
              transfers: [[hash, index, address, transfer.from, transfer.to, transfer.value, block, null]],
            }),
      };
    },
  },
  {
    file: "receipts",
    insert: `INSERT INTO evidence_receipts (transaction_hash, block_number, status, gas_used, contract_address)
      SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::numeric[], $5::text[])
      ON CONFLICT (transaction_hash) DO NOTHING`,
    columns: 5,
    toRows: (r) => {
      const block = r.integer("block_number");
      const created = r.optionalAddress("contract_address");
      return {
        main: [
          [
            r.hash("transaction_hash"),
            block,
            r.optionalInteger("status"),
            r.optionalInteger("gas_used"),
            created,
          ],
        ],
        blocks: [[block, r.optionalHash("block_hash"), null]],
        addresses: created === null ? [] : [[created, "contract"]],
      };
    },
  },
  {
    file: "traces",
    insert: `INSERT INTO evidence_traces
      (trace_id, transaction_hash, block_number, from_address, to_address, value, trace_type, status, error)
      SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::numeric[],
        $7::text[], $8::int[], $9::text[]) ON CONFLICT (trace_id) DO NOTHING`,
    columns: 9,
    toRows: (r) => {
      const block = r.integer("block_number");
      const from = r.optionalAddress("from_address");
      const to = r.optionalAddress("to_address");
      const hash = r.optionalHash("transaction_hash");
      const id = r.optionalText("trace_id") ?? `${hash ?? block}:${r.optionalInteger("trace_index") ?? "0"}`;
      return {
        main: [
          [
            id,
            hash,
            block,
            from,
            to,
            r.optionalInteger("value"),
            r.optionalText("trace_type", 32),
            r.optionalInteger("status"),
            r.optionalText("error"),
          ],
        ],
        blocks: [[block, r.optionalHash("block_hash"), r.optionalInteger("block_timestamp")]],
        addresses: [...(from === null ? [] : [[from, "account"]]), ...(to === null ? [] : [[to, "account"]])],
      };
    },
  },
];

const columnsOf = (rows: readonly Row[], width: number): SqlParameter[] =>
  Array.from({ length: width }, (_, column) => rows.map((row) => row[column] ?? null));

const flush = (tx: SqlExecutor, sql: string, rows: Row[], width: number) =>
  rows.length === 0 ? Effect.void : Effect.asVoid(tx.query(sql, columnsOf(rows.splice(0), width)));

const fileFor = (directory: string, name: string): string | undefined =>
  [".jsonl", ".json", ".csv"]
    .map((extension) => path.join(directory, name + extension))
    .find((file) => existsSync(file));

/**
 * Loads an ethereum-etl export directory (`blocks`, `transactions`, `token_transfers`, `contracts`, `tokens`,
 * `logs`, `receipts`, `traces` as JSONL or CSV) into the evidence store, in one transaction. Re-importing the
 * same rows changes nothing. Blocks and addresses referenced by the records are recorded too, and the ERC-20
 * `Transfer` logs become token transfers (an export with logs but no token_transfers file loses none).
 */
export const importEthereumEtl = (
  tx: SqlExecutor,
  directory: string,
  options: ImportOptions = {},
): Effect.Effect<ImportSummary, StorageError | InputError> =>
  Effect.gen(function* () {
    const present = tables.filter((table) => fileFor(directory, table.file) !== undefined);
    if (present.length === 0)
      return yield* new InputError({
        code: "no-evidence-files",
        message: `${directory}: no ${tables.map((table) => table.file).join(", ")} file (.jsonl or .csv)`,
      });
    const summary: Record<string, { read: number; rejected: number }> = {};
    const problems: string[] = [];
    for (const table of present) {
      const file = fileFor(directory, table.file) as string;
      const counts = { read: 0, rejected: 0 };
      summary[table.file] = counts;
      const main: Row[] = [];
      const blocks: Row[] = [];
      const addresses: Row[] = [];
      const transfers: Row[] = [];
      const rows = readEtlRows(file, { maxRows: options.maxRowsPerFile ?? 5_000_000 });
      while (true) {
        const next = yield* Effect.tryPromise({
          try: () => rows.next(),
          catch: (error) => new InputError({ code: "bad-evidence-file", message: String(error) }),
        });
        if (next.done) break;
        counts.read += 1;
        try {
          const converted = table.toRows(new RowReader(next.value));
          main.push(...converted.main);
          blocks.push(...(converted.blocks ?? []));
          addresses.push(...converted.addresses);
          transfers.push(...(converted.transfers ?? []));
        } catch (error) {
          counts.rejected += 1;
          if (problems.length < maxProblems)
            problems.push(`${path.basename(file)} row ${counts.read}: ${(error as Error).message}`);
        }
        if (main.length >= chunkSize) yield* flush(tx, table.insert, main, table.columns);
        if (blocks.length >= chunkSize) yield* flush(tx, blockInsert, blocks, 3);
        if (addresses.length >= chunkSize) yield* flush(tx, addressInsert, addresses, 2);
        if (transfers.length >= chunkSize) yield* flush(tx, transferInsert, transfers, 8);
      }
      yield* flush(tx, table.insert, main, table.columns);
      yield* flush(tx, blockInsert, blocks, 3);
      yield* flush(tx, addressInsert, addresses, 2);
      yield* flush(tx, transferInsert, transfers, 8);
    }
    return { directory, tables: summary, problems };
  });
