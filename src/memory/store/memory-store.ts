import { Context, type Effect } from "effect";
import type { InputError } from "../../model/errors.js";
import type { MemoryStoreError, MemoryStoreFullError } from "../errors.js";
import type { Memory } from "../model.js";
import type { NewMemory, SearchHit } from "./records.js";

/**
 * The fact memory: what the gate approved. Reads are scoped to their owner. Expired memories (past their
 * validity horizon) never appear in `get`, `search` or duplicate candidates, and `expire` deletes them.
 */
export interface MemoryStoreService {
  readonly store: (memory: NewMemory) => Effect.Effect<Memory, MemoryStoreError | MemoryStoreFullError>;
  readonly get: (memoryId: string, userId: string) => Effect.Effect<Memory | undefined, MemoryStoreError>;
  /** Full-text search over the user's live memories, best match first. */
  readonly search: (
    userId: string,
    query: string,
    limit?: number,
  ) => Effect.Effect<readonly SearchHit[], MemoryStoreError | InputError>;
  /** Deletes every memory past its validity horizon; returns what was removed. */
  readonly expire: () => Effect.Effect<readonly { id: string; userId: string }[], MemoryStoreError>;
  /** Up to `limit` of the user's live memories sharing at least one MinHash band key (duplicate candidates). */
  readonly candidates: (
    userId: string,
    bandKeys: readonly (number | string)[],
    limit: number,
  ) => Effect.Effect<readonly { id: string; content: string }[], MemoryStoreError>;
  /**
   * Up to `limit` live memories of the user who holds the most, read only: what a warm-up checks again, so a
   * new process runs its duplicate look-ups on real rows before its first caller does.
   */
  readonly sample: (
    limit: number,
  ) => Effect.Effect<readonly { userId: string; content: string }[], MemoryStoreError>;
}

export class MemoryStore extends Context.Tag("veracity/memory/MemoryStore")<
  MemoryStore,
  MemoryStoreService
>() {}
