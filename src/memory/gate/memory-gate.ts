import { Context, Effect, Layer } from "effect";
import type { InputError } from "../../model/errors.js";
import { CitationVerifier } from "../citations/citation-verifier.js";
import { DuplicateChecker } from "../dedup/duplicate-checker.js";
import type {
  MemoryStoreError,
  MemoryStoreFullError,
  ReviewItemNotFoundError,
  ReviewQueueFullError,
} from "../errors.js";
import type { Memory, ValidationResult } from "../model.js";
import { ClaimSupportChecker } from "../relevance/claim-support-checker.js";
import { MemoryStore } from "../store/memory-store.js";
import type { AuditEntry, PendingMemory, SearchHit } from "../store/records.js";
import { ReviewQueue } from "../store/review-queue.js";
import { defaultMemoryGateConfig, type MemoryGateConfig } from "./gate-config.js";
import { validateClaim } from "./validate-claim.js";
import { type WarmUpOptions, type WarmUpReport, warmUpValidation } from "./warm-up.js";

/** What happened to an ingested claim: stored (tier 1), queued (tier 2) or refused (tier 3). */
export type IngestOutcome =
  | { readonly status: "stored"; readonly result: ValidationResult; readonly memory: Memory }
  | { readonly status: "queued"; readonly result: ValidationResult; readonly pending: PendingMemory }
  | { readonly status: "blocked"; readonly result: ValidationResult };

export interface MemoryGateService {
  /** The tier of a claim, without storing anything. */
  readonly validate: (candidate: unknown) => Effect.Effect<ValidationResult, InputError>;
  /** Validates, then stores, queues or refuses the claim. */
  readonly ingest: (
    candidate: unknown,
  ) => Effect.Effect<
    IngestOutcome,
    InputError | MemoryStoreError | MemoryStoreFullError | ReviewQueueFullError
  >;
  readonly pending: (
    userId: string,
    limit?: number,
  ) => Effect.Effect<readonly PendingMemory[], MemoryStoreError>;
  readonly getPending: (
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
  readonly search: (
    userId: string,
    query: string,
    limit?: number,
  ) => Effect.Effect<readonly SearchHit[], MemoryStoreError | InputError>;
  readonly get: (memoryId: string, userId: string) => Effect.Effect<Memory | undefined, MemoryStoreError>;
  readonly expire: () => Effect.Effect<number, MemoryStoreError>;
  readonly audit: (userId: string, limit?: number) => Effect.Effect<readonly AuditEntry[], MemoryStoreError>;
  /**
   * Validates stored claims again, read only, for up to `maxMs` (default 3 s): a long-running process calls it
   * once before serving, so its first callers' validations are not the slow ones of a new process.
   */
  readonly warmUp: (options?: WarmUpOptions) => Effect.Effect<WarmUpReport>;
}

export class MemoryGate extends Context.Tag("veracity/memory/MemoryGate")<MemoryGate, MemoryGateService>() {}

/**
 * The grounded ingestion gate. Stored memories are reported to the duplicate checker so an in-memory index
 * stays in step; a failure to do so is ignored on purpose (the memory is stored; a checker that reads the
 * store does not need it).
 */
export const makeMemoryGate = (config: Partial<MemoryGateConfig> = {}) =>
  Effect.gen(function* () {
    const merged: MemoryGateConfig = { ...defaultMemoryGateConfig, ...config };
    const dedup = yield* DuplicateChecker;
    const verifier = yield* CitationVerifier;
    const support = yield* ClaimSupportChecker;
    const store = yield* MemoryStore;
    const queue = yield* ReviewQueue;
    const dependencies = Context.make(DuplicateChecker, dedup).pipe(
      Context.add(CitationVerifier, verifier),
      Context.add(ClaimSupportChecker, support),
    );
    const validate = (candidate: unknown) =>
      validateClaim(candidate, merged).pipe(Effect.provide(dependencies));
    const remember = (memory: Memory) =>
      Effect.ignore(dedup.remember({ id: memory.id, userId: memory.userId, content: memory.content }));

    const service: MemoryGateService = {
      validate: (candidate) => validate(candidate).pipe(Effect.map(({ result }) => result)),
      ingest: (input) =>
        Effect.gen(function* () {
          const { candidate, result } = yield* validate(input);
          const item = {
            userId: candidate.userId,
            content: candidate.content,
            memoryType: candidate.memoryType,
            source: candidate.source,
            evidence: result.evidence,
          };
          if (result.tier === "auto-approve") {
            const memory = yield* store.store(item);
            yield* remember(memory);
            return { status: "stored" as const, result, memory };
          }
          if (result.tier === "flag-review") {
            const pending = yield* queue.enqueue({ ...item, validation: result });
            return { status: "queued" as const, result, pending };
          }
          return { status: "blocked" as const, result };
        }),
      pending: queue.pending,
      getPending: queue.getById,
      approve: (queueId, reviewer) => queue.approve(queueId, reviewer).pipe(Effect.tap(remember)),
      reject: queue.reject,
      search: store.search,
      get: store.get,
      expire: () =>
        store.expire().pipe(
          Effect.tap((removed) => Effect.forEach(removed, (memory) => Effect.ignore(dedup.forget(memory)))),
          Effect.map((removed) => removed.length),
        ),
      audit: queue.audit,
      warmUp: (options) => warmUpValidation(store, { dedup, support }, merged, options),
    };
    return service;
  });

export const MemoryGateLayer = (config: Partial<MemoryGateConfig> = {}) =>
  Layer.effect(MemoryGate, makeMemoryGate(config));
