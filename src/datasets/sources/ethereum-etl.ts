import { parseJsonLine, splitCsvLine } from "../../checks/citations/store/etl-files.js";
import type { Conversion, DatasetSpec, UpstreamTexts } from "../spec.js";
import { linesOf, Skips, textOf } from "./convert-helpers.js";

const resources = "tests/resources";

/**
 * The ethereum-etl test exports read, per evidence-store table, with the columns that identify a row: the
 * exports of the blocks, token-transfer and token jobs and of the streaming tests (mainnet blocks 1,755,634-5,
 * 2,112,234, 508,110 and 17,173,049-50).
 */
const tables = [
  {
    name: "blocks",
    key: ["number"],
    files: [
      "test_export_blocks_job/block_with_logs/expected_blocks.csv",
      "test_export_blocks_job/block_without_transactions/expected_blocks.csv",
      "test_export_blocks_job/blocks_with_transactions/expected_blocks.csv",
      "test_export_blocks_job/blocks_with_transactions_and_withdrawals/expected_blocks.json",
      "test_stream/blocks_1755634_1755635/expected_blocks.json",
    ],
  },
  {
    name: "transactions",
    key: ["hash"],
    files: [
      "test_export_blocks_job/block_with_logs/expected_transactions.csv",
      "test_export_blocks_job/blocks_with_transactions/expected_transactions.csv",
      "test_stream/blocks_1755634_1755635/expected_transactions.json",
      "test_stream/blocks_17173049_17173050/expected_transactions.json",
    ],
  },
  {
    name: "token_transfers",
    key: ["transaction_hash", "log_index"],
    files: [
      "test_export_token_transfers_job/block_with_transfers/expected_token_transfers.csv",
      "test_extract_token_transfers_job/logs/expected_token_transfers.csv",
      "test_stream/blocks_1755634_1755635/expected_token_transfers.json",
      "test_stream/blocks_17173049_17173050/expected_token_transfers.json",
    ],
  },
  {
    name: "tokens",
    key: ["address"],
    files: [
      "test_export_tokens_job/token_with_alternative_return_type/expected_tokens.csv",
      "test_export_tokens_job/token_with_invalid_data/expected_tokens.csv",
      "test_stream/blocks_2112234_2112234/expected_tokens.json",
    ],
  },
  {
    name: "contracts",
    key: ["address"],
    files: [
      "test_export_contracts_job/erc721_contract/expected_contracts.json",
      "test_stream/blocks_2112234_2112234/expected_contracts.json",
      "test_stream/blocks_508110_508110/expected_contracts.json",
    ],
  },
] as const;

type Row = Record<string, unknown>;

/** CSV rows keyed by the header (empty fields null), or JSON lines parsed with long integers kept as text. */
const rowsOf = (path: string, text: string): Row[] => {
  const lines = linesOf(text);
  if (path.endsWith(".json")) return lines.map((line) => parseJsonLine(line) as Row);
  const [header, ...body] = lines;
  const columns = splitCsvLine(header ?? "");
  return body.map((line) => {
    const fields = splitCsvLine(line);
    return Object.fromEntries(
      columns.map((column, index) => [
        column,
        fields[index] === undefined || fields[index] === "" ? null : fields[index],
      ]),
    );
  });
};

/**
 * ethereum-etl's test resources: real mainnet blocks, transactions, token transfers, tokens and contracts as
 * the tool exports them (CSV with a header, or one JSON object per line). Rows of each table are merged across files, one per identifying key,
 * and written as JSONL (integers of 16 digits or more kept as text: wei amounts exceed a double), the form
 * `veracity evidence import ethereum DIR` reads.
 */
export const convertEthereumEtl = (texts: UpstreamTexts): Conversion => {
  const skips = new Skips();
  const files = tables.map((table) => {
    const rows = new Map<string, Row>();
    for (const file of table.files) {
      const path = `${resources}/${file}`;
      for (const row of rowsOf(path, textOf(texts, path))) {
        if (table.key.some((column) => row[column] === undefined || row[column] === null)) {
          skips.add(`${table.name}: row without ${table.key.join(", ")}`);
          continue;
        }
        const key = table.key.map((column) => String(row[column])).join(":");
        if (rows.has(key)) skips.add(`${table.name}: duplicate row`);
        else rows.set(key, row);
      }
    }
    return { name: `${table.name}.jsonl`, lines: [...rows.values()].map((row) => JSON.stringify(row)) };
  });
  return { files, skipped: skips.counts() };
};

export const ethereumEtl: DatasetSpec = {
  name: "ethereum-etl",
  title: "ethereum-etl test exports (blockchain-etl)",
  description:
    "real Ethereum mainnet blocks, transactions, token transfers, tokens, contracts: an evidence store",
  repository: "blockchain-etl/ethereum-etl",
  commit: "97a0275ced2a930ee6f14f9a912c035a984eff17",
  files: tables.flatMap((table) =>
    table.files.map((file) => ({ path: `${resources}/${file}`, sha256: null })),
  ),
  licence: "MIT",
  attribution:
    "ethereum-etl by Evgeny Medvedev and the blockchain-etl contributors; https://github.com/blockchain-etl/" +
    "ethereum-etl, MIT licence, Copyright (c) 2018 Evgeny Medvedev.",
  licenceFiles: ["ethereum-etl-LICENSE"],
  evalFile: undefined,
  converterVersion: 1,
  convert: convertEthereumEtl,
};
