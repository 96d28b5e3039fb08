import { Effect } from "effect";
import type { PublicClient } from "viem";
import { errorMessage } from "../../../model/error-message.js";
import { type CitationCheck, citationKey, type ExtractedCitation } from "../citation.js";
import { type CitationChecks, type CitationVerifier, checkError, notFound, verified } from "./verifier.js";

export interface JsonRpcVerifierOptions {
  readonly rpcUrl: string;
  /** Per HTTP request; 5 s by default. */
  readonly timeoutMs?: number;
  /** Calls in flight at once; viem batches the calls of one tick into one HTTP request. Default 20. */
  readonly concurrency?: number;
}

const onChain = "found on chain, not in the local store";

const firstLine = (error: unknown): string => errorMessage(error).split("\n")[0] ?? "unknown error";

/** A transaction record as far as a receipt tells it (no value: receipts do not carry it). */
export interface ChainTransactionRecord {
  readonly hash: string;
  readonly block_number: string;
  /** Absent when the node's receipt does not carry it (old clients). */
  readonly from_address?: string;
  readonly to_address?: string | null;
}

/**
 * Transactions and blocks checked on an Ethereum JSON-RPC node through viem (batched JSON-RPC). Used as the
 * fallback for citations the evidence store does not hold; a hit says "found on chain, not in the local store".
 */
export const makeJsonRpcVerifier = (options: JsonRpcVerifierOptions): CitationVerifier => {
  // viem (with its hashing and ABI code) is imported at the first lookup, not when Veracity is imported.
  let connection:
    | Promise<{ readonly viem: typeof import("viem"); readonly client: PublicClient }>
    | undefined;
  const connect = () => {
    connection ??= import("viem").then((viem) => ({
      viem,
      client: viem.createPublicClient({
        transport: viem.http(options.rpcUrl, {
          batch: true,
          timeout: options.timeoutMs ?? 5000,
          retryCount: 0,
        }),
      }),
    }));
    return connection;
  };

  /** A lookup's answer as a check: a record is verified, viem's "not found" error is notFound, others errors. */
  const lookup = <Record>(
    fetchRecord: (client: PublicClient) => Promise<Record>,
    isNotFound: (viem: typeof import("viem"), error: unknown) => boolean,
    missing: string,
  ): Effect.Effect<CitationCheck> =>
    Effect.tryPromise(() =>
      connect().then(({ viem, client }) =>
        fetchRecord(client).then(
          (record) => verified("json-rpc", onChain, record),
          (error: unknown) =>
            isNotFound(viem, error)
              ? notFound("json-rpc", missing)
              : checkError("json-rpc", `JSON-RPC lookup failed: ${firstLine(error)}`),
        ),
      ),
    ).pipe(
      Effect.catchAll((failure) =>
        Effect.succeed(checkError("json-rpc", `JSON-RPC lookup failed: ${firstLine(failure.error)}`)),
      ),
    );

  const checkTransaction = (hash: string): Effect.Effect<CitationCheck> =>
    lookup(
      (client) =>
        client.getTransactionReceipt({ hash: hash as `0x${string}` }).then((receipt) => {
          // Receipts of old clients lack `from` and `to`: those attributes then stay unchecked.
          const from = receipt.from as string | undefined;
          const to = receipt.to as string | null | undefined;
          const record: ChainTransactionRecord = {
            hash: hash.toLowerCase(),
            block_number: receipt.blockNumber.toString(),
            ...(from === undefined ? {} : { from_address: from.toLowerCase() }),
            ...(to === undefined ? {} : { to_address: to === null ? null : to.toLowerCase() }),
          };
          return record;
        }),
      (viem, error) => error instanceof viem.TransactionReceiptNotFoundError,
      "transaction neither in the local store nor on chain",
    );

  const checkBlock = (number: string): Effect.Effect<CitationCheck> =>
    lookup(
      (client) =>
        client.getBlock({ blockNumber: BigInt(number) }).then((block) => ({
          number: block.number.toString(),
          hash: block.hash,
          timestamp: block.timestamp.toString(),
        })),
      (viem, error) => error instanceof viem.BlockNotFoundError,
      "block neither in the local store nor on chain",
    );

  return {
    name: "json-rpc",
    kinds: ["transaction", "block"],
    verify: (citations: readonly ExtractedCitation[]) =>
      Effect.forEach(
        citations,
        (citation) =>
          Effect.map(
            citation.kind === "transaction" ? checkTransaction(citation.value) : checkBlock(citation.value),
            (check) => [citationKey(citation.kind, citation.value), check] as const,
          ),
        { concurrency: options.concurrency ?? 20 },
      ).pipe(Effect.map((entries) => new Map(entries) as CitationChecks)),
  };
};
