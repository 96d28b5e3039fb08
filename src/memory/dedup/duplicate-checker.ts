import { Context, type Effect } from "effect";
import type { DedupError } from "../errors.js";

/**
 * The default lexical threshold: a claim whose word-level Jaccard similarity to a stored memory is 0.92 or
 * more is a duplicate. Only near-identical wording reaches it: one word added to a 12-word memory still does
 * (12/13 ≈ 0.923), one of its words swapped for another does not (11/13 ≈ 0.846).
 */
export const defaultDuplicateThreshold = 0.92;

export interface DuplicateCheck {
  readonly isDuplicate: boolean;
  /** Similarity to the closest memory at or above the threshold. */
  readonly similarity?: number;
  /** The id of the memory the claim duplicates. */
  readonly memoryId?: string;
  /** `lexical` (word Jaccard) or `semantic` (embeddings), when a duplicate was found. */
  readonly method?: "lexical" | "semantic";
}

export interface DuplicateQuery {
  readonly content: string;
  readonly userId: string;
}

/**
 * The dedup port of the gate. `check` compares a claim with the user's stored memories; an error means the
 * check could not run, and the gate then sends the claim to review (fail closed). `remember` and `forget`
 * keep an index in step with the store; a checker that reads the store directly ignores them.
 */
export interface DuplicateCheckerService {
  readonly check: (query: DuplicateQuery) => Effect.Effect<DuplicateCheck, DedupError>;
  readonly remember: (memory: {
    id: string;
    userId: string;
    content: string;
  }) => Effect.Effect<void, DedupError>;
  readonly forget: (memory: { id: string; userId: string }) => Effect.Effect<void, DedupError>;
  /**
   * True when `check` does no I/O and finishes in bounded time (an in-memory index): the gate then skips its
   * timeout, whose timer and fiber race cost more than the lookup. Checkers that do I/O leave it unset.
   */
  readonly bounded?: boolean;
}

export class DuplicateChecker extends Context.Tag("veracity/memory/DuplicateChecker")<
  DuplicateChecker,
  DuplicateCheckerService
>() {}

export const notDuplicate: DuplicateCheck = { isDuplicate: false };
