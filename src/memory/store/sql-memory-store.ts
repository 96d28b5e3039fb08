import { randomUUID } from "node:crypto";
import { Effect } from "effect";
import { InputError } from "../../model/errors.js";
import type { SqlClientService } from "../../storage/sql-client.js";
import type { MemoryStoreService } from "./memory-store.js";
import { defaultMemoryLimits, type MemoryLimits } from "./records.js";
import { audit, decodeMemory, insertMemory, memoryColumns, now, storeError } from "./sql-rows.js";

const liveAt = "(valid_until IS NULL OR valid_until > $2)";

/** The memory store over the one SQL interface (PGlite or PostgreSQL, chosen at the edge). */
export const makeSqlMemoryStore = (
  sql: SqlClientService,
  limits: MemoryLimits = defaultMemoryLimits,
): MemoryStoreService => ({
  store: (memory) =>
    Effect.gen(function* () {
      const at = yield* now;
      return yield* sql.transaction((tx) =>
        Effect.gen(function* () {
          const stored = yield* insertMemory(tx, memory, {
            id: randomUUID(),
            at,
            maxMemoriesPerUser: limits.maxMemoriesPerUser,
          });
          yield* audit(tx, {
            action: "store",
            actor: memory.userId,
            userId: memory.userId,
            memoryId: stored.id,
            at,
          });
          return stored;
        }),
      );
    }).pipe(Effect.catchTag("StorageError", (error) => Effect.fail(storeError(error)))),

  get: (memoryId, userId) =>
    Effect.gen(function* () {
      const rows = yield* sql
        .query(
          `SELECT ${memoryColumns} FROM veracity_memories WHERE id = $1 AND ${liveAt} AND user_id = $3`,
          [memoryId, yield* now, userId],
        )
        .pipe(Effect.mapError(storeError));
      return rows[0] === undefined ? undefined : yield* decodeMemory(rows[0]);
    }),

  search: (userId, query, limit = 10) =>
    Effect.gen(function* () {
      if (query.trim().length === 0 || query.length > limits.maxQueryLength)
        return yield* Effect.fail(
          new InputError({
            code: "invalid_query",
            message: `a search needs 1 to ${limits.maxQueryLength} characters`,
          }),
        );
      const rows = yield* sql
        .query<{ rank: number }>(
          `SELECT ${memoryColumns}, ts_rank(search_vector, query) AS rank
             FROM veracity_memories, websearch_to_tsquery('english', $3) AS query
            WHERE user_id = $1 AND ${liveAt} AND search_vector @@ query
            ORDER BY rank DESC, created_at DESC
            LIMIT $4`,
          [userId, yield* now, query, Math.max(1, Math.min(limit, limits.maxResults))],
        )
        .pipe(Effect.mapError(storeError));
      return yield* Effect.forEach(rows, (row) =>
        decodeMemory(row).pipe(Effect.map((memory) => ({ memory, rank: Number(row.rank) }))),
      );
    }),

  expire: () =>
    Effect.gen(function* () {
      const at = yield* now;
      return yield* sql.transaction((tx) =>
        Effect.gen(function* () {
          const removed = yield* tx
            .query<{ id: string; user_id: string }>(
              "DELETE FROM veracity_memories WHERE valid_until <= $1 RETURNING id, user_id",
              [at],
            )
            .pipe(Effect.mapError(storeError));
          yield* Effect.forEach(removed, (row) =>
            audit(tx, { action: "expire", actor: "system", userId: row.user_id, memoryId: row.id, at }),
          );
          const perUser = new Map<string, number>();
          for (const row of removed) perUser.set(row.user_id, (perUser.get(row.user_id) ?? 0) + 1);
          yield* Effect.forEach(perUser, ([userId, count]) =>
            tx
              .query("UPDATE veracity_memory_counts SET n = n - $2 WHERE user_id = $1", [userId, count])
              .pipe(Effect.mapError(storeError)),
          );
          return removed.map((row) => ({ id: row.id, userId: row.user_id }));
        }),
      );
    }).pipe(Effect.catchTag("StorageError", (error) => Effect.fail(storeError(error)))),

  candidates: (userId, bandKeys, limit) =>
    Effect.gen(function* () {
      if (bandKeys.length === 0) return [];
      // The ids sharing a band come from one index scan (evaluated once, as an array); the memories are then
      // fetched by primary key. Written as `id = ANY(ARRAY(...))` rather than `id IN (subquery)`, the planner
      // has no semi-join to plan: planning takes about half as long, and planning is most of this query's time
      // (its execution touches some forty buffers). A memory found through several bands is returned once.
      return yield* sql
        .query<{ id: string; content: string }>(
          `SELECT id, content FROM veracity_memories
            WHERE id = ANY(ARRAY(
                    SELECT memory_id FROM veracity_memory_bands WHERE user_id = $1 AND band_key = ANY($3::bigint[])
                  ))
              AND user_id = $1 AND ${liveAt}
            LIMIT $4`,
          [userId, yield* now, bandKeys.map(String), limit],
        )
        .pipe(Effect.mapError(storeError));
    }),

  sample: (limit) =>
    Effect.gen(function* () {
      const rows = yield* sql
        .query<{ user_id: string; content: string }>(
          `SELECT user_id, content FROM veracity_memories
            WHERE user_id = (SELECT user_id FROM veracity_memory_counts ORDER BY n DESC LIMIT 1)
              AND (valid_until IS NULL OR valid_until > $1)
            LIMIT $2`,
          [yield* now, Math.max(0, Math.floor(limit))],
        )
        .pipe(Effect.mapError(storeError));
      return rows.map((row) => ({ userId: row.user_id, content: row.content }));
    }),
});
