import { Cause, Effect, Exit, Layer, ManagedRuntime } from "effect";
import { CitationVerifier } from "../memory/citations/citation-verifier.js";
import { makeLocalCitationVerifier } from "../memory/citations/local-citation-verifier.js";
import { DuplicateChecker } from "../memory/dedup/duplicate-checker.js";
import { makeStoreDuplicateChecker } from "../memory/dedup/store-duplicate-checker.js";
import type { MemoryGateClient } from "../memory/gate/create-memory-gate.js";
import type { MemoryGateConfig } from "../memory/gate/gate-config.js";
import { MemoryGate, MemoryGateLayer, type MemoryGateService } from "../memory/gate/memory-gate.js";
import { ClaimSupportChecker } from "../memory/relevance/claim-support-checker.js";
import { makeGroundingSupportChecker } from "../memory/relevance/layer-support-checker.js";
import { MemoryStore } from "../memory/store/memory-store.js";
import { SqlMemoryLayer } from "../memory/store/sql-memory-layer.js";
import { SqlClient, type SqlClientService } from "../storage/sql-client.js";

export interface MemoryGateOnSqlOptions extends Partial<MemoryGateConfig> {
  readonly repositoryDir?: string;
  readonly issues?: { readonly endpoint: string; readonly token?: string };
}

/**
 * The memory gate over the server's own SQL client (one PGlite database cannot be opened twice), with the
 * store-backed duplicate check so every instance sees the same memories. `close` leaves the client open.
 */
export const openMemoryGateOnSql = async (
  sql: SqlClientService,
  options: MemoryGateOnSqlOptions = {},
): Promise<MemoryGateClient> => {
  const storage = SqlMemoryLayer().pipe(Layer.provide(Layer.succeed(SqlClient, sql)));
  const dedup = Layer.effect(
    DuplicateChecker,
    Effect.map(MemoryStore, (store) => makeStoreDuplicateChecker(store)),
  );
  const dependencies = Layer.mergeAll(
    dedup.pipe(Layer.provideMerge(storage)),
    Layer.succeed(
      CitationVerifier,
      makeLocalCitationVerifier({
        repositoryDir: options.repositoryDir ?? process.cwd(),
        ...(options.issues === undefined ? {} : { issues: options.issues }),
      }),
    ),
    Layer.succeed(ClaimSupportChecker, makeGroundingSupportChecker()),
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
    warmUp: (options) => run((gate) => gate.warmUp(options)),
    close: () => runtime.dispose(),
  };
};
