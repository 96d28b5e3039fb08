import { createHash } from "node:crypto";
import { canonicalJson } from "./canonical-json.js";
import type { AuditEntry } from "./entry.js";

export { canonicalJson };

export const sha256Hex = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

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
