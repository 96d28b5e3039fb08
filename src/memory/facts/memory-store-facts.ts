import { Effect, Layer } from "effect";
import {
  FactualMemory,
  FactualMemoryError,
  type FactualMemoryShape,
  lexicalSimilarity,
} from "../../checks/model-backed/factual-memory.js";
import { MemoryStore, type MemoryStoreService } from "../store/memory-store.js";

/** Full-text candidates fetched per requested hit, before re-ranking by similarity. */
const candidatesPerHit = 4;
const maxCandidates = 50;

/** The most hits a fact search answers, whatever it is asked for. */
const maxHits = 50;

/**
 * Memory search hits as fact-memory answers: memories of type "fact" only, re-ranked by lexical similarity to
 * the query (so `minSimilarity` means the same as for the in-memory implementation), the best `limit` kept.
 */
export const rankedFacts = (
  query: string,
  hits: readonly {
    readonly memory: { readonly memoryType: string; readonly content: string; readonly source: string };
  }[],
  options: { readonly limit?: number; readonly minSimilarity?: number } = {},
) =>
  hits
    .filter((hit) => hit.memory.memoryType === "fact")
    .map((hit) => ({
      fact: hit.memory.content,
      similarity: lexicalSimilarity(query, hit.memory.content),
      source: hit.memory.source,
    }))
    .filter((hit) => hit.similarity >= (options.minSimilarity ?? 0.8))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, Math.min(maxHits, Math.max(1, options.limit ?? 3)));

/**
 * The factual memory over the SQL memory store of the memory issue: its full-text search finds candidate
 * memories of one user, re-ranked by lexical similarity to the query (so `minSimilarity` means the same
 * as for the in-memory implementation). Only memories of type "fact" count.
 */
export const factualMemoryFromStore = (store: MemoryStoreService, userId: string): FactualMemoryShape => ({
  search: (query, options = {}) => {
    const limit = Math.min(maxHits, Math.max(1, options.limit ?? 3));
    return store.search(userId, query, Math.min(maxCandidates, limit * candidatesPerHit)).pipe(
      Effect.map((hits) => rankedFacts(query, hits, options)),
      Effect.mapError(
        (error) =>
          new FactualMemoryError({ message: `memory store search failed: ${error.message}`, cause: error }),
      ),
    );
  },
});

/** `FactualMemory` from the `MemoryStore` service, for one user's memories. */
export const FactualMemoryFromStore = (userId: string): Layer.Layer<FactualMemory, never, MemoryStore> =>
  Layer.effect(
    FactualMemory,
    Effect.map(MemoryStore, (store) => factualMemoryFromStore(store, userId)),
  );
