import { Context, Effect, Layer } from "effect";
import { runMigrations } from "../../storage/migrations.js";
import { SqlClient, type SqlClientService } from "../../storage/sql-client.js";
import type { MemoryStoreError } from "../errors.js";
import { MemoryStore } from "./memory-store.js";
import { memoryMigrationNamespace, memoryMigrations } from "./migrations.js";
import { defaultMemoryLimits, type MemoryLimits } from "./records.js";
import { ReviewQueue } from "./review-queue.js";
import { makeSqlMemoryStore } from "./sql-memory-store.js";
import { makeSqlReviewQueue } from "./sql-review-queue.js";
import { storeError } from "./sql-rows.js";

/** Brings the memory tables up to date on this database. */
export const migrateMemoryStore = (sql: SqlClientService): Effect.Effect<void, MemoryStoreError> =>
  runMigrations(sql, memoryMigrationNamespace, memoryMigrations).pipe(
    Effect.asVoid,
    Effect.mapError(storeError),
  );

/** MemoryStore and ReviewQueue over whatever provides SqlClient; migrates on construction. */
export const SqlMemoryLayer = (
  limits: Partial<MemoryLimits> = {},
): Layer.Layer<MemoryStore | ReviewQueue, MemoryStoreError, SqlClient> => {
  const merged = { ...defaultMemoryLimits, ...limits };
  return Layer.effectContext(
    Effect.gen(function* () {
      const sql = yield* SqlClient;
      yield* migrateMemoryStore(sql);
      return Context.make(MemoryStore, makeSqlMemoryStore(sql, merged)).pipe(
        Context.add(ReviewQueue, makeSqlReviewQueue(sql, merged)),
      );
    }),
  );
};
