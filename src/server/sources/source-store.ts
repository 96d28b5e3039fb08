import { createHash } from "node:crypto";
import { Effect } from "effect";
import { LRUCache } from "lru-cache";
import { type CacheStats, cacheStatsOf, countEvictions, makeCacheCounts } from "../../model/cache-stats.js";
import type { StorageError } from "../../storage/errors.js";
import { runMigrations } from "../../storage/migrations.js";
import type { SqlClientService } from "../../storage/sql-client.js";

const migrations = [
  {
    version: 1,
    sql: `CREATE TABLE veracity_sources (
      user_id text NOT NULL,
      hash text NOT NULL,
      text text NOT NULL,
      chars integer NOT NULL,
      used_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, hash)
    )`,
  },
];

/** The SHA-256 of a source's UTF-8 text, in lower-case hex: the name a request refers to it by. */
export const sourceHash = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

export interface StoredSourceLimits {
  /** Sources kept per user; storing one more removes the least recently used (default 1,000). */
  readonly sourcesPerUser: number;
  /** Characters kept per user, all sources together (default 100,000,000). */
  readonly charsPerUser: number;
  /** Characters of recently used sources this process keeps in memory, all users together (default 64,000,000). */
  readonly cachedChars: number;
}

export const defaultStoredSourceLimits: StoredSourceLimits = {
  sourcesPerUser: 1_000,
  charsPerUser: 100_000_000,
  cachedChars: 64_000_000,
};

export interface SourceStore {
  /** Stores a source for the user (again: only marks it used) and returns its hash and size. */
  readonly put: (
    userId: string,
    text: string,
  ) => Effect.Effect<{ hash: string; chars: number }, StorageError>;
  /** The user's sources by hash, in the order asked; a hash the user has not stored is missing from the map. */
  readonly get: (
    userId: string,
    hashes: readonly string[],
  ) => Effect.Effect<ReadonlyMap<string, string>, StorageError>;
  /**
   * What this process's memory of recently used sources did (`server.stored-sources`): hashes asked for, those
   * answered without the database, evictions, and what it holds.
   */
  readonly cacheStats: () => CacheStats;
}

/**
 * Sources a user uploads once and names by hash in later requests: kept in the SQL store (every server
 * instance on the database sees them), per user, within a count and a size per user (the least recently
 * used go first), with the recently used texts of this process in memory so a large source is read from the
 * database once. A hash names its content, so a text cached here can never be stale.
 */
export const makeSourceStore = (
  sql: SqlClientService,
  limits: StoredSourceLimits = defaultStoredSourceLimits,
): Effect.Effect<SourceStore, StorageError> =>
  Effect.gen(function* () {
    yield* runMigrations(sql, "sources", migrations);
    const counts = makeCacheCounts();
    const cache = new LRUCache<string, string>({
      maxSize: Math.max(1, limits.cachedChars),
      sizeCalculation: (text) => Math.max(1, text.length),
      dispose: countEvictions(counts),
    });
    const cacheKey = (userId: string, hash: string) => `${userId}\u0000${hash}`;
    return {
      put: (userId, text) =>
        Effect.gen(function* () {
          const hash = sourceHash(text);
          yield* sql.transaction((tx) =>
            Effect.gen(function* () {
              yield* tx.query(
                `INSERT INTO veracity_sources (user_id, hash, text, chars) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (user_id, hash) DO UPDATE SET used_at = now()`,
                [userId, hash, text, text.length],
              );
              // The newest first; whatever lies past the count or the size is removed (never the one just stored:
              // a source is at most `inputLimits.sourceChars`, far below the size kept per user).
              yield* tx.query(
                `DELETE FROM veracity_sources WHERE user_id = $1 AND hash IN (
                   SELECT hash FROM (
                     SELECT hash,
                            SUM(chars) OVER (ORDER BY used_at DESC, hash) AS running,
                            ROW_NUMBER() OVER (ORDER BY used_at DESC, hash) AS position
                       FROM veracity_sources WHERE user_id = $1
                   ) ranked WHERE hash <> $4 AND (running > $2 OR position > $3))`,
                [userId, limits.charsPerUser, limits.sourcesPerUser, hash],
              );
            }),
          );
          if (text.length <= limits.cachedChars) cache.set(cacheKey(userId, hash), text);
          return { hash, chars: text.length };
        }),
      get: (userId, hashes) =>
        Effect.gen(function* () {
          const found = new Map<string, string>();
          const missing: string[] = [];
          for (const hash of new Set(hashes)) {
            counts.lookups += 1;
            const cached = cache.get(cacheKey(userId, hash));
            if (cached === undefined) missing.push(hash);
            else {
              counts.hits += 1;
              found.set(hash, cached);
            }
          }
          if (missing.length > 0) {
            const rows = yield* sql.query<{ hash: string; text: string }>(
              "SELECT hash, text FROM veracity_sources WHERE user_id = $1 AND hash = ANY($2::text[])",
              [userId, missing],
            );
            for (const row of rows) {
              found.set(row.hash, row.text);
              if (row.text.length <= limits.cachedChars) cache.set(cacheKey(userId, row.hash), row.text);
            }
          }
          if (found.size > 0)
            yield* sql.query(
              "UPDATE veracity_sources SET used_at = now() WHERE user_id = $1 AND hash = ANY($2::text[])",
              [userId, [...found.keys()]],
            );
          return found;
        }),
      cacheStats: () =>
        cacheStatsOf("server.stored-sources", counts, {
          entries: cache.size,
          characters: cache.calculatedSize,
          maxCharacters: limits.cachedChars,
        }),
    };
  });
