import { Schema } from "effect";

/** What was audited: a verification, a memory ingestion decision, a review action, or another operation. */
export const AuditOperation = Schema.String.pipe(Schema.pattern(/^[a-z][a-z0-9_.-]{0,63}$/));

/** What a caller appends; the log adds sequence, id, time and the hash chain. */
export const AuditAppend = Schema.Struct({
  operation: AuditOperation,
  /** Who did it: a user id, an API key name, "cli". */
  actor: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(256)),
  /** SHA-256 (hex) of the input and of the output. */
  inputHash: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  outputHash: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  citationsVerified: Schema.Int.pipe(Schema.nonNegative()),
  citationsFailed: Schema.Int.pipe(Schema.nonNegative()),
  /** Overall confidence in [0, 1], or null when the operation has none. */
  confidence: Schema.NullOr(Schema.Number.pipe(Schema.between(0, 1))),
  executionTimeMs: Schema.Number.pipe(Schema.finite(), Schema.nonNegative()),
  metadata: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
});
export type AuditAppend = typeof AuditAppend.Type;

/** One stored entry. `entryHash` covers every other field, `previousHash` included: the chain. */
export interface AuditEntry {
  readonly sequence: number;
  readonly entryId: string;
  readonly recordedAt: string;
  readonly operation: string;
  readonly actor: string;
  readonly inputHash: string;
  readonly outputHash: string;
  readonly citationsVerified: number;
  readonly citationsFailed: number;
  readonly confidence: number | null;
  readonly executionTimeMs: number;
  /** The metadata as the canonical JSON text that was hashed. */
  readonly metadataJson: string;
  readonly previousHash: string;
  readonly entryHash: string;
}

/** The previous hash of the first entry. */
export const genesisHash = "0".repeat(64);

/** Metadata larger than this is refused: the log is not a blob store. */
export const maxMetadataBytes = 64 * 1024;
