import { Context, Data, Effect, Layer } from "effect";

/** A stored fact close to a query. `similarity` is in [0, 1]. */
export interface MemoryHit {
  readonly fact: string;
  readonly similarity: number;
  /** Where the fact came from (document id, URL...), when known. */
  readonly source?: string;
}

export interface MemorySearchOptions {
  /** At most this many hits (default 3, capped at 50). */
  readonly limit?: number;
  /** Hits below this similarity are dropped (default 0.8). */
  readonly minSimilarity?: number;
}

export class FactualMemoryError extends Data.TaggedError("FactualMemoryError")<{
  readonly message: string;
  readonly cause?: unknown;
}> {}

export interface FactualMemoryShape {
  readonly search: (
    query: string,
    options?: MemorySearchOptions,
  ) => Effect.Effect<readonly MemoryHit[], FactualMemoryError>;
}

/** Known facts the fact-decomposition layer searches before asking the model. */
export class FactualMemory extends Context.Tag("veracity/FactualMemory")<
  FactualMemory,
  FactualMemoryShape
>() {}

export interface StoredFact {
  readonly fact: string;
  readonly source?: string;
}

/** Words that carry little meaning; negations are kept on purpose ("not built" differs from "built"). */
const stopWords = new Set(
  "a an the of in on at to by for from with and or as is are was were be been being it its this that these those which who whom".split(
    " ",
  ),
);

const termCounts = (text: string): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.,]\d+)*/gu) ?? []) {
    if (stopWords.has(word)) continue;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  return counts;
};

const cosine = (a: Map<string, number>, b: Map<string, number>): number => {
  let dot = 0;
  for (const [term, count] of a) dot += count * (b.get(term) ?? 0);
  const norm = (counts: Map<string, number>) =>
    Math.sqrt([...counts.values()].reduce((sum, c) => sum + c * c, 0));
  const denominator = norm(a) * norm(b);
  return denominator === 0 ? 0 : dot / denominator;
};

/** Lexical similarity of two texts in [0, 1]: cosine of their content-word counts. */
export const lexicalSimilarity = (a: string, b: string): number => cosine(termCounts(a), termCounts(b));

export const maxStoredFacts = 100_000;

/**
 * An in-memory factual memory: lexical similarity (cosine of content-word counts), no model needed.
 * Holds at most `maxFacts` facts (default 100 000); `add` refuses more with a `FactualMemoryError`.
 */
export const makeInMemoryFactualMemory = (
  initial: readonly (string | StoredFact)[] = [],
  options: { readonly maxFacts?: number } = {},
): FactualMemoryShape & {
  readonly add: (fact: string | StoredFact) => Effect.Effect<void, FactualMemoryError>;
} => {
  const maxFacts = Math.min(options.maxFacts ?? maxStoredFacts, maxStoredFacts);
  const facts: { readonly stored: StoredFact; readonly terms: Map<string, number> }[] = [];
  const addNow = (fact: string | StoredFact): boolean => {
    if (facts.length >= maxFacts) return false;
    const stored = typeof fact === "string" ? { fact } : fact;
    facts.push({ stored, terms: termCounts(stored.fact) });
    return true;
  };
  for (const fact of initial.slice(0, maxFacts)) addNow(fact);
  return {
    add: (fact) =>
      Effect.suspend(() =>
        addNow(fact)
          ? Effect.void
          : Effect.fail(
              new FactualMemoryError({ message: `the factual memory is full (${maxFacts} facts)` }),
            ),
      ),
    search: (query, searchOptions = {}) =>
      Effect.sync(() => {
        const limit = Math.min(50, Math.max(1, searchOptions.limit ?? 3));
        const minSimilarity = searchOptions.minSimilarity ?? 0.8;
        const queryTerms = termCounts(query);
        return facts
          .map(({ stored, terms }) => ({ ...stored, similarity: cosine(queryTerms, terms) }))
          .filter((hit) => hit.similarity >= minSimilarity)
          .sort((a, b) => b.similarity - a.similarity)
          .slice(0, limit);
      }),
  };
};

/** A FactualMemory Layer holding the given facts. */
export const InMemoryFactualMemory = (
  facts: readonly (string | StoredFact)[] = [],
): Layer.Layer<FactualMemory> => Layer.sync(FactualMemory, () => makeInMemoryFactualMemory(facts));

/** A memory with no facts: every factual claim goes to the model check. */
export const EmptyFactualMemory: Layer.Layer<FactualMemory> = InMemoryFactualMemory([]);
