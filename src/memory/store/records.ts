import { Schema } from "effect";
import { EvidenceObject } from "../evidence/evidence-object.js";
import { type Memory, MemoryType, ValidationResult } from "../model.js";

/** A stored memory with its search rank, when it came from a text search. */
export interface SearchHit {
  readonly memory: Memory;
  readonly rank: number;
}

/** A claim in the review queue, waiting for its owner's decision, with the validation that sent it there. */
export const PendingMemory = Schema.Struct({
  queueId: Schema.String,
  userId: Schema.String,
  content: Schema.String,
  memoryType: MemoryType,
  source: Schema.String,
  evidence: EvidenceObject,
  validation: ValidationResult,
  submittedAt: Schema.Date,
});
export type PendingMemory = typeof PendingMemory.Type;

export const AuditAction = Schema.Literal("enqueue", "approve", "reject", "store", "expire");
export type AuditAction = typeof AuditAction.Type;

export const AuditEntry = Schema.Struct({
  action: AuditAction,
  actor: Schema.String,
  userId: Schema.String,
  queueId: Schema.optional(Schema.String),
  memoryId: Schema.optional(Schema.String),
  reason: Schema.optional(Schema.String),
  at: Schema.Date,
});
export type AuditEntry = typeof AuditEntry.Type;

/** A memory to store: what the gate approved, or a review item its owner approved. */
export interface NewMemory {
  readonly userId: string;
  readonly content: string;
  readonly memoryType: MemoryType;
  readonly source: string;
  readonly evidence: EvidenceObject;
}

export interface MemoryLimits {
  readonly maxPendingPerUser: number;
  readonly maxPendingTotal: number;
  readonly maxMemoriesPerUser: number;
  /** Most results one search or one pending listing returns. */
  readonly maxResults: number;
  readonly maxQueryLength: number;
  readonly maxReasonLength: number;
}

export const defaultMemoryLimits: MemoryLimits = {
  maxPendingPerUser: 100,
  maxPendingTotal: 10_000,
  maxMemoriesPerUser: 1_000_000,
  maxResults: 100,
  maxQueryLength: 1_000,
  maxReasonLength: 2_000,
};
