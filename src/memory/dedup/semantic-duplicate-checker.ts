import { Context, Effect } from "effect";
import { DedupError } from "../errors.js";
import type { DuplicateCheckerService } from "./duplicate-checker.js";

/** The embedding port: one vector per text. Any failure is a DedupError, so the claim goes to review. */
export interface EmbeddingModelService {
  readonly embed: (texts: readonly string[]) => Effect.Effect<readonly (readonly number[])[], DedupError>;
}

export class EmbeddingModel extends Context.Tag("veracity/memory/EmbeddingModel")<
  EmbeddingModel,
  EmbeddingModelService
>() {}

export const cosineSimilarity = (a: readonly number[], b: readonly number[]): number => {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    normA += a[i]! * a[i]!;
    normB += b[i]! * b[i]!;
  }
  return normA === 0 || normB === 0 ? 0 : dot / Math.sqrt(normA * normB);
};

export interface SemanticDedupOptions {
  /** Cosine similarity at or above which a paraphrase is a duplicate (default 0.95: close ones only). */
  readonly threshold?: number;
  /** Most embeddings kept per user; older ones are dropped first. */
  readonly maxPerUser?: number;
  /** Most users whose embeddings are kept; a new user beyond it is refused with a DedupError. Default 10,000. */
  readonly maxUsers?: number;
}

/**
 * Semantic deduplication on top of a lexical checker: the lexical check runs first; when it finds nothing,
 * the claim is embedded and compared with the user's stored embeddings (paraphrases that Jaccard misses).
 */
export const withSemanticDedup = (
  lexical: DuplicateCheckerService,
  model: EmbeddingModelService,
  options: SemanticDedupOptions = {},
): DuplicateCheckerService => {
  const threshold = options.threshold ?? 0.95;
  const maxPerUser = options.maxPerUser ?? 10_000;
  const maxUsers = options.maxUsers ?? 10_000;
  const vectors = new Map<string, Map<string, readonly number[]>>();
  const embedOne = (text: string) =>
    model
      .embed([text])
      .pipe(
        Effect.flatMap((result) =>
          result[0] === undefined
            ? Effect.fail(new DedupError({ message: "the embedding model returned no vector" }))
            : Effect.succeed(result[0]),
        ),
      );

  const tooManyUsers = () =>
    new DedupError({ message: `semantic dedup holds embeddings for the most users it may (${maxUsers})` });

  return {
    check: (query) =>
      Effect.gen(function* () {
        const lexicalResult = yield* lexical.check(query);
        if (lexicalResult.isDuplicate) return lexicalResult;
        const vector = yield* embedOne(query.content);
        let best: { memoryId: string; similarity: number } | undefined;
        for (const [memoryId, stored] of vectors.get(query.userId) ?? []) {
          const similarity = cosineSimilarity(vector, stored);
          if (similarity >= threshold && (best === undefined || similarity > best.similarity))
            best = { memoryId, similarity: Math.min(1, similarity) };
        }
        return best === undefined
          ? lexicalResult
          : {
              isDuplicate: true,
              similarity: best.similarity,
              memoryId: best.memoryId,
              method: "semantic" as const,
            };
      }),
    remember: (memory) =>
      Effect.gen(function* () {
        // A user past the limit is refused before anything is indexed or embedded (no paid call, no half state),
        // and again after the embedding: other users may have taken the last places while it was computed.
        if (!vectors.has(memory.userId) && vectors.size >= maxUsers)
          return yield* Effect.fail(tooManyUsers());
        yield* lexical.remember(memory);
        const vector = yield* embedOne(memory.content);
        let forUser = vectors.get(memory.userId);
        if (forUser === undefined) {
          if (vectors.size >= maxUsers) return yield* Effect.fail(tooManyUsers());
          forUser = new Map();
          vectors.set(memory.userId, forUser);
        }
        forUser.set(memory.id, vector);
        if (forUser.size > maxPerUser) {
          const oldest = forUser.keys().next().value;
          if (oldest !== undefined) forUser.delete(oldest);
        }
      }),
    forget: (memory) =>
      lexical.forget(memory).pipe(
        Effect.tap(() =>
          Effect.sync(() => {
            const forUser = vectors.get(memory.userId);
            forUser?.delete(memory.id);
            // A user with nothing left no longer counts toward the limit.
            if (forUser?.size === 0) vectors.delete(memory.userId);
          }),
        ),
      ),
  };
};
