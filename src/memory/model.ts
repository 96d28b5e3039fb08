import { Schema } from "effect";
import { EvidenceObject } from "./evidence/evidence-object.js";

/**
 * The three outcomes of ingestion: `auto-approve` (stored at once), `flag-review` (queued for a human) and
 * `block` (refused).
 */
export const IngestionTier = Schema.Literal("auto-approve", "flag-review", "block");
export type IngestionTier = typeof IngestionTier.Type;

export const MemoryType = Schema.Literal("fact", "decision", "preference");
export type MemoryType = typeof MemoryType.Type;

export const maxClaimLength = 10_000;
export const maxIdentifierLength = 200;
export const maxMetadataChars = 10_000;

const Identifier = Schema.String.pipe(
  Schema.trimmed(),
  Schema.minLength(1),
  Schema.maxLength(maxIdentifierLength),
);

/** A claim an agent or a user wants to store. */
export const MemoryCandidate = Schema.Struct({
  content: Schema.String.pipe(Schema.maxLength(maxClaimLength)).pipe(
    Schema.filter((text) => text.trim().length > 0 || "the claim is empty"),
  ),
  memoryType: MemoryType,
  /** Where the claim comes from: `user`, `documentation`, `adr`, `commit`, `manual`, `conversation`, `ai_synthesis`... */
  source: Identifier,
  userId: Identifier,
  /** After this instant the memory expires: a Date, or an ISO 8601 string. */
  validUntil: Schema.optional(Schema.Union(Schema.DateFromSelf, Schema.Date)),
  metadata: Schema.optional(
    Schema.Record({ key: Schema.String, value: Schema.Unknown }).pipe(
      Schema.filter(
        (metadata) => {
          try {
            return JSON.stringify(metadata).length <= maxMetadataChars;
          } catch {
            return false;
          }
        },
        { message: () => `metadata must be JSON of at most ${maxMetadataChars} characters` },
      ),
    ),
  ),
});
export type MemoryCandidate = typeof MemoryCandidate.Type;

/** What the gate decided about a candidate memory: the tier, why, and every check that passed or failed. */
export const ValidationResult = Schema.Struct({
  tier: IngestionTier,
  /** True only for the auto-approve tier. */
  approved: Schema.Boolean,
  reason: Schema.String,
  evidence: EvidenceObject,
  checksPassed: Schema.Array(Schema.String),
  checksFailed: Schema.Array(Schema.String),
  /** Similarity to the closest existing memory, when one was found at or above the threshold. */
  similarityScore: Schema.optional(Schema.Number.pipe(Schema.between(0, 1))),
  /** The id of the memory this claim duplicates. */
  conflictingMemoryId: Schema.optional(Schema.String),
});
export type ValidationResult = typeof ValidationResult.Type;

/** A stored memory. */
export const Memory = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  content: Schema.String,
  memoryType: MemoryType,
  source: Schema.String,
  evidence: EvidenceObject,
  createdAt: Schema.Date,
});
export type Memory = typeof Memory.Type;
