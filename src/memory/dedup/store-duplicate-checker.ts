import { Effect, Layer } from "effect";
import { ConfigError } from "../../model/errors.js";
import { DedupError } from "../errors.js";
import { MemoryStore, type MemoryStoreService } from "../store/memory-store.js";
import {
  DuplicateChecker,
  type DuplicateCheckerService,
  defaultDuplicateThreshold,
  notDuplicate,
} from "./duplicate-checker.js";
import { candidateProbability, defaultLshShape, lshKeys } from "./minhash.js";
import { hashWordSet, sortedJaccard } from "./word-hashes.js";
import { wordSet } from "./word-set.js";

const minimumRecall = 0.999;

export interface StoreDuplicateCheckerOptions {
  readonly threshold?: number;
  /** Most candidates confirmed per check; more than this is reported as a failed check (review). */
  readonly maxCandidates?: number;
}

/**
 * Duplicate check against the persistent store: the MinHash band keys saved with every memory find the
 * candidates (a GIN index lookup), the exact Jaccard confirms them. Always sees what other processes stored.
 */
export const makeStoreDuplicateChecker = (
  store: MemoryStoreService,
  options: StoreDuplicateCheckerOptions = {},
): DuplicateCheckerService => {
  const threshold = options.threshold ?? defaultDuplicateThreshold;
  const maxCandidates = options.maxCandidates ?? 1_000;
  if (candidateProbability(threshold, defaultLshShape) < minimumRecall)
    throw new ConfigError({
      key: "duplicateThreshold",
      message: `the stored MinHash bands find pairs at Jaccard ${threshold} too rarely; use a threshold of 0.9 or more, or the in-memory index`,
    });
  return {
    check: ({ content, userId }) =>
      Effect.gen(function* () {
        const hashes = hashWordSet(wordSet(content));
        const candidates = yield* store
          .candidates(userId, lshKeys(hashes), maxCandidates + 1)
          .pipe(
            Effect.mapError(
              (error) => new DedupError({ message: `dedup lookup failed: ${error.message}`, cause: error }),
            ),
          );
        if (candidates.length > maxCandidates)
          return yield* Effect.fail(
            new DedupError({ message: `more than ${maxCandidates} duplicate candidates` }),
          );
        let best: { memoryId: string; similarity: number } | undefined;
        for (const candidate of candidates) {
          const similarity = sortedJaccard(hashes, hashWordSet(wordSet(candidate.content)));
          if (similarity >= threshold && (best === undefined || similarity > best.similarity))
            best = { memoryId: candidate.id, similarity };
        }
        return best === undefined ? notDuplicate : { isDuplicate: true, ...best, method: "lexical" as const };
      }),
    remember: () => Effect.void,
    forget: () => Effect.void,
  };
};

export const StoreDuplicateCheckerLayer = (options: StoreDuplicateCheckerOptions = {}) =>
  Layer.effect(
    DuplicateChecker,
    Effect.map(MemoryStore, (store) => makeStoreDuplicateChecker(store, options)),
  );
