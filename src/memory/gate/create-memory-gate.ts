import { Cause, Effect, Exit, Layer, ManagedRuntime } from "effect";
import { SqlClientLayer } from "../../storage/open.js";
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

export interface CreateMemoryGateOptions extends Partial<MemoryGateConfig> {
  /** A PGlite directory, `memory://`, or a `postgres://` URL. `memory://` by default. */
  readonly database?: string;
  /** The repository whose ADRs and commits citations point to (default: the working directory). */
  readonly repositoryDir?: string;
  /** Check cited URLs over HTTP with the default verifier (off by default: offline). */
  readonly fetchUrls?: boolean;
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
}

/** The Promise face of the memory gate. Errors are the exported tagged error classes. */
export interface MemoryGateClient {
  readonly validate: (candidate: unknown) => Promise<ValidationResult>;
  readonly ingest: (candidate: unknown) => Promise<IngestOutcome>;
  readonly pending: (userId: string, limit?: number) => Promise<readonly PendingMemory[]>;
  readonly getPending: (queueId: string, userId: string) => Promise<PendingMemory>;
  readonly approve: (queueId: string, reviewer: string) => Promise<Memory>;
  readonly reject: (queueId: string, reviewer: string, reason: string) => Promise<void>;
  readonly search: (userId: string, query: string, limit?: number) => Promise<readonly SearchHit[]>;
  readonly get: (memoryId: string, userId: string) => Promise<Memory | undefined>;
  readonly expire: () => Promise<number>;
  readonly audit: (userId: string, limit?: number) => Promise<readonly AuditEntry[]>;
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
    Layer.provide(SqlClientLayer(options.database ?? "memory://")),
  );
  const citations = Layer.succeed(
    CitationVerifier,
    options.citationVerifier ??
      makeLocalCitationVerifier({
        repositoryDir: options.repositoryDir ?? process.cwd(),
        ...(options.fetchUrls === undefined ? {} : { fetchUrls: options.fetchUrls }),
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
  const runtime = ManagedRuntime.make(MemoryGateLayer(options).pipe(Layer.provide(dependencies)));
  const run = async <A, E>(use: (gate: MemoryGateService) => Effect.Effect<A, E>): Promise<A> => {
    const exit = await runtime.runPromiseExit(Effect.flatMap(MemoryGate, use));
    if (Exit.isSuccess(exit)) return exit.value;
    throw Cause.squash(exit.cause);
  };
  try {
    await run(() => Effect.void);
  } catch (error) {
    await runtime.dispose();
    throw error;
  }
  return {
    validate: (candidate) => run((gate) => gate.validate(candidate)),
    ingest: (candidate) => run((gate) => gate.ingest(candidate)),
    pending: (userId, limit) => run((gate) => gate.pending(userId, limit)),
    getPending: (queueId, userId) => run((gate) => gate.getPending(queueId, userId)),
    approve: (queueId, reviewer) => run((gate) => gate.approve(queueId, reviewer)),
    reject: (queueId, reviewer, reason) => run((gate) => gate.reject(queueId, reviewer, reason)),
    search: (userId, query, limit) => run((gate) => gate.search(userId, query, limit)),
    get: (memoryId, userId) => run((gate) => gate.get(memoryId, userId)),
    expire: () => run((gate) => gate.expire()),
    audit: (userId, limit) => run((gate) => gate.audit(userId, limit)),
    close: () => runtime.dispose(),
  };
};
