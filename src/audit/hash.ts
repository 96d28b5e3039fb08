import { createHash } from "node:crypto";
import type { AuditEntry } from "./entry.js";

export const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/** JSON with object keys sorted at every depth, so equal values always hash equally. */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );

/** The hash of an entry: SHA-256 over the canonical JSON of every field but the hash itself. */
export const hashAuditEntry = (entry: Omit<AuditEntry, "entryHash">): string =>
  sha256Hex(
    canonicalJson({
      sequence: entry.sequence,
      entryId: entry.entryId,
      recordedAt: entry.recordedAt,
      operation: entry.operation,
      actor: entry.actor,
      inputHash: entry.inputHash,
      outputHash: entry.outputHash,
      citationsVerified: entry.citationsVerified,
      citationsFailed: entry.citationsFailed,
      confidence: entry.confidence,
      executionTimeMs: entry.executionTimeMs,
      metadataJson: entry.metadataJson,
      previousHash: entry.previousHash,
    }),
  );
