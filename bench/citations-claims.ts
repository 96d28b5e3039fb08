/**
 * Generates labelled citation claims from the shared ethereum-etl records, in the common JSONL form of the
 * shared benchmarks (id, dataset, task, context, question, response, label, spans, meta):
 *
 * - true claims: sender, recipient, value, block and time of a real transaction, all as recorded;
 * - fabricated citations: a transaction hash, an address or a block number of valid format that is not in
 *   the data (hashes from a seeded generator, so the file is reproducible);
 * - wrong attributes: a real transaction with the wrong sender, recipient, value or block (another real
 *   address or block, so only the comparison with the record can catch it);
 * - token transfers: true amounts and wrong amounts.
 *
 *   node --import tsx bench/citations-claims.ts [--out file.jsonl]   # stdout by default
 *
 * Data: VERACITY_DATASETS_DIR/ethereum, else the fetched ethereum-etl dataset (`veracity datasets fetch`).
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Decimal } from "decimal.js";
import { describeWei } from "../src/checks/citations/records/units.js";
import { parseJsonLine } from "../src/checks/citations/store/etl-files.js";
import { ethereumDirectory } from "../src/checks/citations/testing/benchmarks-dir.js";
import { mulberry32 } from "../src/model/mulberry32.js";

interface Transaction {
  readonly hash: string;
  readonly from_address: string;
  readonly to_address: string | null;
  readonly value: string;
  readonly block_number: string;
  readonly block_timestamp: string;
}

interface Transfer {
  readonly transaction_hash: string;
  readonly token_address: string;
  readonly from_address: string;
  readonly to_address: string;
  readonly value: string;
}

export type ClaimCategory =
  | "true"
  | "true-token"
  | "fabricated-transaction"
  | "fabricated-address"
  | "fabricated-block"
  | "wrong-sender"
  | "wrong-recipient"
  | "wrong-value"
  | "wrong-block"
  | "wrong-token-amount";

export interface ClaimRecord {
  readonly id: string;
  readonly dataset: "ethereum-citations";
  readonly task: "citations";
  readonly context: null;
  readonly question: null;
  readonly response: string;
  readonly label: "supported" | "hallucinated";
  readonly spans: readonly { start: number; end: number; text: string }[];
  readonly meta: {
    readonly category: ClaimCategory;
    readonly transaction: string;
    /** The fabricated citation value, when the category fabricates one. */
    readonly fabricated?: string;
  };
}

const readJsonl = <A>(file: string): A[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => {
      const row = parseJsonLine(line) as Record<string, unknown>;
      const normalized: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(row))
        normalized[key] = typeof value === "number" ? String(value) : value;
      return normalized as A;
    });

const randomHex = (random: () => number, length: number) =>
  Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join("");

const isoOf = (seconds: string) => new Date(Number(seconds) * 1000).toISOString().replace(".000Z", "Z");

const sentence = (parts: {
  sender: string;
  amount: string;
  recipient: string | null;
  hash: string;
  block: string;
  timestamp: string;
}) =>
  `[ADDR:${parts.sender}] sent ${parts.amount}` +
  (parts.recipient === null ? "" : ` to [ADDR:${parts.recipient}]`) +
  ` in [TX:${parts.hash}] at [BLOCK:${parts.block}] on [TS:${parts.timestamp}].`;

const spanOf = (response: string, text: string) => {
  const start = response.indexOf(text);
  return [{ start, end: start + text.length, text }];
};

export const generateCitationClaims = (directory: string = ethereumDirectory()): ClaimRecord[] => {
  const transactions = readJsonl<Transaction>(path.join(directory, "transactions.jsonl"));
  const transfers = readJsonl<Transfer>(path.join(directory, "token_transfers.jsonl"));
  const random = mulberry32(20261122);
  const knownHashes = new Set(transactions.map((tx) => tx.hash));
  const knownAddresses = new Set(
    [
      ...transactions.flatMap((tx) => [tx.from_address, tx.to_address]),
      ...transfers.flatMap((t) => [t.from_address, t.to_address, t.token_address]),
    ].filter((address): address is string => address !== null),
  );
  const addresses = [...knownAddresses].sort();
  const blocks = [...new Set(transactions.map((tx) => tx.block_number))].sort();
  const knownBlocks = new Set([
    ...blocks,
    ...readJsonl<{ number: string }>(path.join(directory, "blocks.jsonl")).map((b) => b.number),
  ]);
  const records: ClaimRecord[] = [];
  const push = (
    category: ClaimCategory,
    transaction: string,
    response: string,
    wrong?: string,
    fabricated?: string,
  ) =>
    records.push({
      id: `ethereum-citations:${category}:${records.length}`,
      dataset: "ethereum-citations",
      task: "citations",
      context: null,
      question: null,
      response,
      label: category === "true" || category === "true-token" ? "supported" : "hallucinated",
      spans: wrong === undefined ? [] : spanOf(response, wrong),
      meta: { category, transaction, ...(fabricated === undefined ? {} : { fabricated }) },
    });
  const otherAddress = (...avoid: (string | null)[]) => {
    for (;;) {
      const candidate = addresses[Math.floor(random() * addresses.length)] as string;
      if (!avoid.includes(candidate)) return candidate;
    }
  };
  const freshHex = (length: number, known: ReadonlySet<string>) => {
    for (;;) {
      const candidate = `0x${randomHex(random, length)}`;
      if (!known.has(candidate)) return candidate;
    }
  };

  transactions.forEach((tx, index) => {
    const wei = new Decimal(tx.value);
    const truth = {
      sender: tx.from_address,
      amount: describeWei(wei),
      recipient: tx.to_address,
      hash: tx.hash,
      block: tx.block_number,
      timestamp: isoOf(tx.block_timestamp),
    };
    push("true", tx.hash, sentence(truth));

    const fakeHash = freshHex(64, knownHashes);
    push(
      "fabricated-transaction",
      tx.hash,
      sentence({ ...truth, hash: fakeHash }),
      `[TX:${fakeHash}]`,
      fakeHash,
    );

    const wrongSender = otherAddress(tx.from_address, tx.to_address);
    push("wrong-sender", tx.hash, sentence({ ...truth, sender: wrongSender }), `[ADDR:${wrongSender}]`);

    if (tx.to_address !== null) {
      const wrongRecipient = otherAddress(tx.from_address, tx.to_address);
      push(
        "wrong-recipient",
        tx.hash,
        sentence({ ...truth, recipient: wrongRecipient }),
        `[ADDR:${wrongRecipient}]`,
      );
    }

    // Off by a factor of 3 either way (far beyond the 1% tolerance); a zero value claimed as 1.5 ETH.
    const third = wei.dividedBy(3).floor();
    const wrongWei = wei.isZero()
      ? new Decimal("1.5e18")
      : index % 2 === 0 || third.isZero()
        ? wei.times(3)
        : third;
    const wrongAmount = describeWei(wrongWei);
    push("wrong-value", tx.hash, sentence({ ...truth, amount: wrongAmount }), `sent ${wrongAmount}`);

    const wrongBlock = blocks.filter((block) => block !== tx.block_number)[
      index % (blocks.length - 1)
    ] as string;
    push("wrong-block", tx.hash, sentence({ ...truth, block: wrongBlock }), `[BLOCK:${wrongBlock}]`);

    if (index % 4 === 0) {
      const fakeAddress = freshHex(40, knownAddresses);
      push(
        "fabricated-address",
        tx.hash,
        sentence({ ...truth, sender: fakeAddress }),
        `[ADDR:${fakeAddress}]`,
        fakeAddress,
      );
    }
    if (index % 4 === 1) {
      let fakeBlock = String(20_000_000 + Math.floor(random() * 1_000_000));
      while (knownBlocks.has(fakeBlock)) fakeBlock = String(Number(fakeBlock) + 1);
      push(
        "fabricated-block",
        tx.hash,
        sentence({ ...truth, block: fakeBlock }),
        `[BLOCK:${fakeBlock}]`,
        fakeBlock,
      );
    }
  });

  transfers.forEach((transfer, index) => {
    if (index % 2 !== 0) return;
    const claim = (amount: string) =>
      `[ADDR:${transfer.from_address}] transferred ${amount} tokens of [ADDR:${transfer.token_address}] to [ADDR:${transfer.to_address}] in [TX:${transfer.transaction_hash}].`;
    push("true-token", transfer.transaction_hash, claim(transfer.value));
    const wrong = new Decimal(transfer.value).isZero()
      ? "1000"
      : new Decimal(transfer.value).times(2).toFixed();
    push("wrong-token-amount", transfer.transaction_hash, claim(wrong), `${wrong} tokens`);
  });
  return records;
};

const isMain =
  process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const outIndex = process.argv.indexOf("--out");
  const lines = generateCitationClaims()
    .map((record) => JSON.stringify(record))
    .join("\n");
  if (outIndex !== -1 && process.argv[outIndex + 1] !== undefined)
    writeFileSync(process.argv[outIndex + 1] as string, `${lines}\n`);
  else process.stdout.write(`${lines}\n`);
}
