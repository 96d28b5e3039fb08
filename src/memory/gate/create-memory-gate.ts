import { Cause, Effect, Exit, Layer, ManagedRuntime } from "effect";
import { type AuditLogShape, makeAuditLog } from "../../audit/audit-log.js";
import { auditEntryForIngestion, auditEntryForReview } from "../../audit/entries-for.js";
import type { AuditAppend } from "../../audit/entry.js";
import { SqlClientLayer } from "../../storage/open.js";
import { SqlClient } from "../../storage/sql-client.js";
import { CitationVerifier, type CitationVerifierService } from "../citations/citation-verifier.js";
import { makeLocalCitationVerifier } from "../citations/local-citation-verifier.js";
import { DuplicateChecker, type DuplicateCheckerService } from "../dedup/duplicate-checker.js";
import { makeLshDuplicateChecker } from "../dedup/lsh-duplicate-checker.js";
import { type EmbeddingModelService, withSemanticDedup } from "../dedup/semantic-duplicate-checker.js";
import { makeStoreDuplicateChecker } from "../dedup/store-duplicate-checker.js";
import type { Memory, ValidationResult } from "../model.js";
import { ClaimSupportChecker, type ClaimSupportCheckerService } from "../relevance/claim-support-checker.js";
import { makeGroundingSupportChecker } from "../relevance/layer-support-checker.js";
import { MemoryStore } from "../store/memory-store.js";
import type { AuditEntry, MemoryLimits, PendingMemory, SearchHit } from "../store/records.js";
import { SqlMemoryLayer } from "../store/sql-memory-layer.js";
import type { MemoryGateConfig } from "./gate-config.js";
import { type IngestOutcome, MemoryGate, MemoryGateLayer, type MemoryGateService } from "./memory-gate.js";
import type { WarmUpOptions, WarmUpReport } from "./warm-up.js";

export interface CreateMemoryGateOptions extends Partial<MemoryGateConfig> {
  /** A PGlite directory, `memory://`, or a `postgres://` URL. `memory://` by default. */
  readonly database?: string;
  /** The repository whose ADRs and commits citations point to (default: the working directory). */
  readonly repositoryDir?: string;
  /** Check cited URLs over HTTP with the default verifier (off by default: offline). */
  readonly fetchUrls?: boolean;
  /** The issue tracker cited issues are checked against (`issueTrackerFromEnv`); without it they cannot be. */
  readonly issues?: { readonly endpoint: string; readonly token?: string };
  /** Replaces the default local citation verifier. */
  readonly citationVerifier?: CitationVerifierService;
  /** Replaces the offline grounding layer for `verifyClaimRelevance` (e.g. the NLI layer). */
  readonly claimSupportChecker?: ClaimSupportCheckerService;
  /** `store` (default): band keys in the database, seen by every process. `index`: in-memory MinHash/LSH. */
  readonly duplicateIndex?: "store" | "index";
  readonly duplicateThreshold?: number;
  /** Adds semantic deduplication after the lexical check. */
  readonly embeddingModel?: EmbeddingModelService;
  readonly semanticThreshold?: number;
  readonly limits?: Partial<MemoryLimits>;
  /**
   * Appends every ingestion decision and review action to the hash-chained audit trail in the same database
   * (what `veracity serve` writes and `veracity audit verify` checks). Off by default. The decision is
   * committed first; if its entry then cannot be written the call rejects with the storage error, so the
   * caller learns that the trail is missing it.
   */
  readonly auditTrail?: boolean;
}

/** The Promise face of the memory gate. Errors are the exported tagged error classes. */
export interface MemoryGateClient {
  /** The tier a candidate memory would get and why, without storing or queueing anything. */
  readonly validate: (candidate: unknown) => Promise<ValidationResult>;
  /**
   * Validates a candidate memory, then stores it (auto-approved), queues it for review (flagged) or refuses it
   * (blocked), and says which.
   */
  readonly ingest: (candidate: unknown) => Promise<IngestOutcome>;
  /** The user's items waiting for review, oldest first, at most `limit` of them (default 10). */
  readonly pending: (userId: string, limit?: number) => Promise<readonly PendingMemory[]>;
  /** One item waiting for review; rejects with ReviewItemNotFoundError if it is not the user's or not there. */
  readonly getPending: (queueId: string, userId: string) => Promise<PendingMemory>;
  /** Approves a queued item and stores it as a memory; only the item's owner may decide it. */
  readonly approve: (queueId: string, reviewer: string) => Promise<Memory>;
  /** Rejects a queued item with a reason and removes it; only the item's owner may decide it. */
  readonly reject: (queueId: string, reviewer: string, reason: string) => Promise<void>;
  /** Full-text search over the user's live memories, best match first, at most `limit` hits (default 10). */
  readonly search: (userId: string, query: string, limit?: number) => Promise<readonly SearchHit[]>;
  /** One of the user's live memories, or undefined when it does not exist, has expired, or is another user's. */
  readonly get: (memoryId: string, userId: string) => Promise<Memory | undefined>;
  /** Deletes every memory past its validity horizon; resolves to how many were removed. */
  readonly expire: () => Promise<number>;
  /**
   * The user's memory audit trail (stored, queued, approved, rejected, expired), oldest first, at most `limit`
   * entries (default 100).
   */
  readonly audit: (userId: string, limit?: number) => Promise<readonly AuditEntry[]>;
  /**
   * Validates stored claims again, read only (citations unchecked, nothing written), for up to `maxMs` (default
   * 3 s) or `maxChecks` (600): a server calls it once before it listens, so the first validations it serves
   * don't pay the new process's compiling. Never fails: a store it cannot read only ends it sooner.
   */
  readonly warmUp: (options?: WarmUpOptions) => Promise<WarmUpReport>;
  /** Closes the gate and its database connection; call it once, when done. */
  readonly close: () => Promise<void>;
}

const duplicateCheckerLayer = (options: CreateMemoryGateOptions) =>
  Layer.effect(
    DuplicateChecker,
    Effect.gen(function* () {
      const threshold =
        options.duplicateThreshold === undefined ? {} : { threshold: options.duplicateThreshold };
      const lexical: DuplicateCheckerService =
        options.duplicateIndex === "index"
          ? makeLshDuplicateChecker(threshold)
          : makeStoreDuplicateChecker(yield* MemoryStore, threshold);
      return options.embeddingModel === undefined
        ? lexical
        : withSemanticDedup(lexical, options.embeddingModel, {
            ...(options.semanticThreshold === undefined ? {} : { threshold: options.semanticThreshold }),
          });
    }),
  );

/**
 * Opens a memory gate over an embedded PGlite store or PostgreSQL. With the `index` duplicate check the
 * in-memory index starts empty: it sees what this gate stores, not what was stored before.
 */
export const createMemoryGate = async (options: CreateMemoryGateOptions = {}): Promise<MemoryGateClient> => {
  const storage = SqlMemoryLayer(options.limits ?? {}).pipe(
    Layer.provideMerge(SqlClientLayer(options.database ?? "memory://")),
  );
  const citations = Layer.succeed(
    CitationVerifier,
    options.citationVerifier ??
      makeLocalCitationVerifier({
        repositoryDir: options.repositoryDir ?? process.cwd(),
        ...(options.fetchUrls === undefined ? {} : { fetchUrls: options.fetchUrls }),
        ...(options.issues === undefined ? {} : { issues: options.issues }),
      }),
  );
  const support = Layer.succeed(
    ClaimSupportChecker,
    options.claimSupportChecker ?? makeGroundingSupportChecker(),
  );
  const dependencies = Layer.mergeAll(
    duplicateCheckerLayer(options).pipe(Layer.provideMerge(storage)),
    citations,
    support,
  );
  const runtime = ManagedRuntime.make(MemoryGateLayer(options).pipe(Layer.provideMerge(dependencies)));
  const run = async <A, E>(use: (gate: MemoryGateService) => Effect.Effect<A, E>): Promise<A> => {
    const exit = await runtime.runPromiseExit(Effect.flatMap(MemoryGate, use));
    if (Exit.isSuccess(exit)) return exit.value;
    throw Cause.squash(exit.cause);
  };
  let auditLog: AuditLogShape | undefined;
  try {
    await run(() => Effect.void);
    if (options.auditTrail === true)
      auditLog = await runtime.runPromise(Effect.flatMap(SqlClient, makeAuditLog));
  } catch (error) {
    await runtime.dispose();
    throw error;
  }
  const record = async (entry: AuditAppend) => {
    if (auditLog !== undefined) await runtime.runPromise(auditLog.append(entry));
  };
  const actorOf = (candidate: unknown): string => {
    const userId = (candidate as { userId?: unknown } | null)?.userId;
    return typeof userId === "string" ? userId : "unknown";
  };
  return {
    validate: (candidate) => run((gate) => gate.validate(candidate)),
    ingest: async (candidate) => {
      const outcome = await run((gate) => gate.ingest(candidate));
      await record(auditEntryForIngestion(actorOf(candidate), candidate, outcome));
      return outcome;
    },
    pending: (userId, limit) => run((gate) => gate.pending(userId, limit)),
    getPending: (queueId, userId) => run((gate) => gate.getPending(queueId, userId)),
    approve: async (queueId, reviewer) => {
      const memory = await run((gate) => gate.approve(queueId, reviewer));
      await record(auditEntryForReview(reviewer, queueId, { approve: { memoryId: memory.id } }));
      return memory;
    },
    reject: async (queueId, reviewer, reason) => {
      await run((gate) => gate.reject(queueId, reviewer, reason));
      await record(auditEntryForReview(reviewer, queueId, { reject: { reason } }));
    },
    search: (userId, query, limit) => run((gate) => gate.search(userId, query, limit)),
    get: (memoryId, userId) => run((gate) => gate.get(memoryId, userId)),
    expire: () => run((gate) => gate.expire()),
    audit: (userId, limit) => run((gate) => gate.audit(userId, limit)),
    warmUp: (options) => run((gate) => gate.warmUp(options)),
    close: () => runtime.dispose(),
  };
};
