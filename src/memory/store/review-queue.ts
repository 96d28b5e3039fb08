import { Context, type Effect } from "effect";
import type { InputError } from "../../model/errors.js";
import type {
  MemoryStoreError,
  MemoryStoreFullError,
  ReviewItemNotFoundError,
  ReviewQueueFullError,
} from "../errors.js";
import type { Memory, ValidationResult } from "../model.js";
import type { AuditEntry, NewMemory, PendingMemory } from "./records.js";

/**
 * The persistent review queue. Only the owner sees or decides an item: any other user gets
 * ReviewItemNotFoundError, exactly as for an id that does not exist. `approve` removes the item and stores the
 * memory in one transaction, so concurrent decisions store it exactly once. Every action is audited.
 */
export interface ReviewQueueService {
  readonly enqueue: (
    item: NewMemory & { readonly validation: ValidationResult },
  ) => Effect.Effect<PendingMemory, ReviewQueueFullError | MemoryStoreError>;
  readonly pending: (
    userId: string,
    limit?: number,
  ) => Effect.Effect<readonly PendingMemory[], MemoryStoreError>;
  readonly getById: (
    queueId: string,
    userId: string,
  ) => Effect.Effect<PendingMemory, ReviewItemNotFoundError | MemoryStoreError>;
  readonly approve: (
    queueId: string,
    reviewer: string,
  ) => Effect.Effect<Memory, ReviewItemNotFoundError | MemoryStoreFullError | MemoryStoreError>;
  readonly reject: (
    queueId: string,
    reviewer: string,
    reason: string,
  ) => Effect.Effect<void, ReviewItemNotFoundError | InputError | MemoryStoreError>;
  /** The user's audit trail, oldest first. */
  readonly audit: (userId: string, limit?: number) => Effect.Effect<readonly AuditEntry[], MemoryStoreError>;
}

export class ReviewQueue extends Context.Tag("veracity/memory/ReviewQueue")<
  ReviewQueue,
  ReviewQueueService
>() {}
