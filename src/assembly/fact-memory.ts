import path from "node:path";
import { Effect, FiberRef } from "effect";
import { FactualMemoryError, type FactualMemoryShape } from "../checks/model-backed/factual-memory.js";
import { rankedFacts } from "../memory/facts/memory-store-facts.js";
import { createMemoryGate, type MemoryGateClient } from "../memory/gate/create-memory-gate.js";
import { FactMemoryUser } from "../model/fact-memory-user.js";
import { UsageError } from "../model/usage-error.js";

const maxCandidates = 50;

/**
 * One user's approved facts in a memory store (what `veracity memory ingest` wrote), as the fact memory that
 * fact decomposition searches: the store's full-text search finds candidates, re-ranked by lexical similarity
 * so thresholds mean the same as for the in-memory fact memory. Only memories of type "fact" count.
 */
export const openStoreFactMemory = async (
  database: string,
  userId: string,
  cwd: string,
): Promise<{ readonly memory: FactualMemoryShape; readonly close: () => Promise<void> }> => {
  if (userId.trim().length === 0) throw new UsageError("--user must name the user whose facts to use");
  const target = /^postgres(?:ql)?:\/\//i.test(database) ? database : path.resolve(cwd, database);
  const gate = await createMemoryGate({ database: target }).catch((error: Error) => {
    throw new UsageError(`cannot open the memory store ${database}: ${error.message}`);
  });
  const memory = storeFactMemory(gate, Effect.succeed(userId));
  return { memory, close: () => gate.close() };
};

/**
 * The approved facts of a memory store for the user `userOf` names, as a fact memory: the store's full-text search
 * finds candidates, re-ranked by lexical similarity so thresholds mean the same as for the in-memory fact memory.
 * Only memories of type "fact" count; no user, no facts.
 */
export const storeFactMemory = (
  gate: Pick<MemoryGateClient, "search">,
  userOf: Effect.Effect<string | undefined>,
): FactualMemoryShape => ({
  search: (query, options = {}) =>
    Effect.flatMap(userOf, (userId) =>
      userId === undefined
        ? Effect.succeed([])
        : Effect.tryPromise({
            try: () => gate.search(userId, query, maxCandidates),
            catch: (cause) =>
              new FactualMemoryError({ message: `memory store search failed: ${String(cause)}`, cause }),
          }).pipe(Effect.map((hits) => rankedFacts(query, hits, options))),
    ),
});

/**
 * A memory store shared by many users (a server's) as the fact memory of every verification: each verification
 * reads the facts of the user it runs for (`FactMemoryUser`, set by `verifyFor`), and none without one.
 */
export const requestUserFactMemory = (gate: Pick<MemoryGateClient, "search">): FactualMemoryShape =>
  storeFactMemory(gate, FiberRef.get(FactMemoryUser));
