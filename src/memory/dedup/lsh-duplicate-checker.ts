import { Effect, Layer } from "effect";
import { DedupError } from "../errors.js";
import {
  DuplicateChecker,
  type DuplicateCheckerService,
  defaultDuplicateThreshold,
  notDuplicate,
} from "./duplicate-checker.js";
import { LshDedupIndex, type LshIndexOptions } from "./lsh-index.js";
import { lshShapeFor } from "./minhash.js";

export interface LshDuplicateCheckerOptions extends LshIndexOptions {
  readonly threshold?: number;
  /** Most users with an index; a new user beyond it is refused with a DedupError (so the claim is reviewed). */
  readonly maxUsers?: number;
}

/**
 * An in-memory duplicate checker: one MinHash/LSH index per user, exact Jaccard on the candidates. Fill it
 * with `remember` (or `hydrate`) from the store when the process starts.
 */
export const makeLshDuplicateChecker = (
  options: LshDuplicateCheckerOptions = {},
): DuplicateCheckerService & { readonly indexOf: (userId: string) => LshDedupIndex | undefined } => {
  const threshold = options.threshold ?? defaultDuplicateThreshold;
  const maxUsers = options.maxUsers ?? 100_000;
  const indexes = new Map<string, LshDedupIndex>();
  const indexFor = (userId: string): LshDedupIndex => {
    let index = indexes.get(userId);
    if (index === undefined) {
      if (indexes.size >= maxUsers)
        throw new RangeError(`dedup index holds the most users it may (${maxUsers})`);
      index = new LshDedupIndex({ ...options, shape: options.shape ?? lshShapeFor(threshold) });
      indexes.set(userId, index);
    }
    return index;
  };
  const guarded = <A>(what: string, body: () => A) =>
    Effect.try({
      try: body,
      catch: (cause) => new DedupError({ message: `${what}: ${String(cause)}`, cause }),
    });

  return {
    bounded: true,
    indexOf: (userId) => indexes.get(userId),
    check: ({ content, userId }) =>
      guarded("dedup check failed", () => {
        const match = indexes.get(userId)?.findDuplicate(content, threshold);
        return match === undefined
          ? notDuplicate
          : {
              isDuplicate: true,
              similarity: match.similarity,
              memoryId: match.memoryId,
              method: "lexical" as const,
            };
      }),
    remember: ({ id, userId, content }) =>
      guarded("dedup index update failed", () => indexFor(userId).add(id, content)),
    forget: ({ id, userId }) =>
      guarded("dedup index update failed", () => {
        const index = indexes.get(userId);
        index?.remove(id);
        // A user with nothing left no longer counts toward maxUsers.
        if (index?.size === 0) indexes.delete(userId);
      }),
  };
};

export const LshDuplicateCheckerLayer = (options: LshDuplicateCheckerOptions = {}) =>
  Layer.sync(DuplicateChecker, () => makeLshDuplicateChecker(options));
