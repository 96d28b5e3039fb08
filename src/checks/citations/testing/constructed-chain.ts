import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

/**
 * A small made-up chain written as an ethereum-etl export: accounts A, B and C, a token TKN with 6 decimals
 * at T, an ether payment from A to B in block 100, and TKN transfers to A in blocks 101, 105 and 200. Tests
 * build stores from it so that what a claim should be judged is known by construction.
 */
export const chain = {
  a: `0x${"a1".repeat(20)}`,
  b: `0x${"b2".repeat(20)}`,
  c: `0x${"c3".repeat(20)}`,
  token: `0x${"7e".repeat(20)}`,
  payment: `0x${"01".repeat(32)}`,
  transferFromB: `0x${"02".repeat(32)}`,
  transferFromC: `0x${"03".repeat(32)}`,
  lateTransfer: `0x${"04".repeat(32)}`,
} as const;

const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const topicOf = (address: string) => `0x${"0".repeat(24)}${address.slice(2)}`;
const word = (value: bigint) => `0x${value.toString(16).padStart(64, "0")}`;

const jsonl = (rows: readonly object[]) => `${rows.map((row) => JSON.stringify(row)).join("\n")}\n`;

const transaction = (hash: string, block: number, from: string, to: string, value: string) => ({
  hash,
  block_number: block,
  block_timestamp: 1_700_000_000 + block * 12,
  transaction_index: 0,
  from_address: from,
  to_address: to,
  value,
});

const transfer = (hash: string, block: number, from: string, to: string, value: number) => ({
  token_address: chain.token,
  from_address: from,
  to_address: to,
  value,
  transaction_hash: hash,
  log_index: 0,
  block_number: block,
  block_timestamp: 1_700_000_000 + block * 12,
});

/** The TKN transfers of the chain as ERC-20 `Transfer` logs (what `logs.jsonl` holds). */
export const transferLog = (hash: string, block: number, from: string, to: string, value: bigint) => ({
  log_index: 0,
  transaction_hash: hash,
  transaction_index: 0,
  block_number: block,
  address: chain.token,
  data: word(value),
  topics: [transferTopic, topicOf(from), topicOf(to)],
});

export interface ConstructedChainFiles {
  /** Which files to write: `token_transfers` as its own file or only as `logs`, and receipts and traces. */
  readonly transfersAs?: "token_transfers" | "logs";
  readonly withReceiptsAndTraces?: boolean;
}

/** Writes the chain into `directory` as ethereum-etl JSONL files. */
export const writeConstructedChain = async (directory: string, files: ConstructedChainFiles = {}) => {
  await mkdir(directory, { recursive: true });
  const write = (name: string, rows: readonly object[]) =>
    writeFile(path.join(directory, `${name}.jsonl`), jsonl(rows));
  await write("transactions", [
    transaction(chain.payment, 100, chain.a, chain.b, "2000000000000000000"),
    transaction(chain.transferFromB, 101, chain.b, chain.token, "0"),
    transaction(chain.transferFromC, 105, chain.c, chain.token, "0"),
    transaction(chain.lateTransfer, 200, chain.b, chain.token, "0"),
  ]);
  await write("tokens", [{ address: chain.token, symbol: "TKN", name: "Test token", decimals: 6 }]);
  const transfers: [string, number, string, string, number][] = [
    [chain.transferFromB, 101, chain.b, chain.a, 1_500_000],
    [chain.transferFromC, 105, chain.c, chain.a, 3_000_000],
    [chain.lateTransfer, 200, chain.b, chain.a, 1_000_000],
  ];
  if ((files.transfersAs ?? "token_transfers") === "token_transfers")
    await write(
      "token_transfers",
      transfers.map(([hash, block, from, to, value]) => transfer(hash, block, from, to, value)),
    );
  else
    await write(
      "logs",
      transfers.map(([hash, block, from, to, value]) => transferLog(hash, block, from, to, BigInt(value))),
    );
  if (files.withReceiptsAndTraces) {
    const receiptOnly = `0x${"05".repeat(32)}`;
    await write("receipts", [
      { transaction_hash: receiptOnly, transaction_index: 0, block_number: 300, gas_used: 21000, status: 1 },
    ]);
    await write("traces", [
      {
        trace_id: `call_${`0x${"06".repeat(32)}`}_`,
        transaction_hash: `0x${"06".repeat(32)}`,
        block_number: 301,
        from_address: chain.c,
        to_address: `0x${"d4".repeat(20)}`,
        value: 5,
        trace_type: "call",
        call_type: "call",
        status: 1,
        error: null,
      },
    ]);
  }
};
