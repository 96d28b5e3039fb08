import { Effect } from "effect";
import { type CitationCheck, citationKey, type ExtractedCitation } from "../citation.js";
import { findTransactionTraces } from "../store/aggregates.js";
import type { EvidenceStore } from "../store/evidence-store.js";
import { type CitationChecks, type CitationVerifier, checkError, notFound, verified } from "./verifier.js";

const valuesOf = (citations: readonly ExtractedCitation[], kind: string) =>
  citations.filter((citation) => citation.kind === kind).map((citation) => citation.value);

/**
 * Transactions, blocks and addresses checked against the SQL evidence store: one batched `= ANY($1)` query
 * per kind. A store outage turns every citation of the batch into an ERROR check.
 */
export const makeStoreVerifier = (store: EvidenceStore): CitationVerifier => ({
  name: "store",
  kinds: ["transaction", "address", "block"],
  verify: (citations) =>
    Effect.gen(function* () {
      const [transactions, blocks, addresses] = yield* Effect.all(
        [
          store.findTransactions(valuesOf(citations, "transaction")),
          store.findBlocks(valuesOf(citations, "block")),
          store.findAddresses(valuesOf(citations, "address")),
        ],
        { concurrency: 1 },
      );
      // A transaction missing from the transactions table may still be known through its token transfers.
      const missing = valuesOf(citations, "transaction").filter((hash) => !transactions.has(hash));
      const transfers = missing.length > 0 ? yield* store.findTokenTransfers(missing) : new Map();
      const traced = yield* findTransactionTraces(
        store.sql,
        missing.filter((hash) => !transfers.has(hash)),
      );
      const checks = new Map<string, CitationCheck>();
      for (const citation of citations) {
        const key = citationKey(citation.kind, citation.value);
        if (citation.kind === "transaction") {
          const record = transactions.get(citation.value);
          const transfer = transfers.get(citation.value)?.[0];
          checks.set(
            key,
            record
              ? verified("store", "transaction in the evidence store", record)
              : transfer
                ? verified("store", "transaction known from its token transfers in the evidence store", {
                    hash: citation.value,
                    block_number: transfer.block_number,
                  })
                : traced.has(citation.value)
                  ? verified(
                      "store",
                      `transaction known from its ${traced.get(citation.value)?.known_from} in the evidence store`,
                      {
                        hash: citation.value,
                        block_number: traced.get(citation.value)?.block_number,
                      },
                    )
                  : notFound("store", "transaction not in the evidence store"),
          );
        } else if (citation.kind === "block") {
          const record = blocks.get(citation.value);
          checks.set(
            key,
            record
              ? verified("store", "block in the evidence store", record)
              : notFound("store", "block not in the evidence store"),
          );
        } else if (citation.kind === "address") {
          checks.set(
            key,
            addresses.has(citation.value)
              ? verified("store", "address in the evidence store")
              : notFound("store", "address not in the evidence store"),
          );
        }
      }
      return checks as CitationChecks;
    }).pipe(
      Effect.catchAll((error) =>
        Effect.succeed(
          new Map(
            citations.map((citation) => [
              citationKey(citation.kind, citation.value),
              checkError("store", `evidence store unavailable: ${error.message}`),
            ]),
          ) as CitationChecks,
        ),
      ),
    ),
});
