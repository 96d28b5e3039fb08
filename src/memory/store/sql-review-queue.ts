import { randomUUID } from "node:crypto";
import { Effect } from "effect";
import { InputError } from "../../model/errors.js";
import type { SqlClientService, SqlExecutor } from "../../storage/sql-client.js";
import { type MemoryStoreError, ReviewItemNotFoundError, ReviewQueueFullError } from "../errors.js";
import { defaultMemoryLimits, type MemoryLimits, type PendingMemory } from "./records.js";
import type { ReviewQueueService } from "./review-queue.js";
import {
  audit,
  decodeAudit,
  decodePending,
  encodeEvidence,
  encodeValidation,
  insertMemory,
  now,
  storeError,
} from "./sql-rows.js";

const queueLockKey = 0x7665_6d71; // "vemq": serializes the limit checks of concurrent enqueues on PostgreSQL

const notFound = (queueId: string) =>
  new ReviewItemNotFoundError({ message: `no pending review item ${queueId} for this user`, queueId });

const countUpTo = (tx: SqlExecutor, where: string, params: readonly (string | number)[], limit: number) =>
  tx
    .query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT 1 FROM veracity_review_queue ${where} LIMIT $${params.length + 1}) AS held`,
      [...params, limit],
    )
    .pipe(
      Effect.mapError(storeError),
      Effect.map((rows) => rows[0]?.n ?? 0),
    );

const pendingOrNotFound = (
  row: unknown,
  queueId: string,
): Effect.Effect<PendingMemory, ReviewItemNotFoundError | MemoryStoreError> =>
  row === undefined ? Effect.fail(notFound(queueId)) : decodePending(row);

/** Takes an item out of the queue for its owner, or fails with not-found (missing, decided, or not theirs). */
const takeItem = (tx: SqlExecutor, queueId: string, reviewer: string) =>
  tx
    .query("DELETE FROM veracity_review_queue WHERE queue_id = $1 AND user_id = $2 RETURNING *", [
      queueId,
      reviewer,
    ])
    .pipe(
      Effect.mapError(storeError),
      Effect.flatMap((rows) => pendingOrNotFound(rows[0], queueId)),
    );

/** The persistent review queue over the one SQL interface. */
export const makeSqlReviewQueue = (
  sql: SqlClientService,
  limits: MemoryLimits = defaultMemoryLimits,
): ReviewQueueService => ({
  enqueue: (item) =>
    Effect.gen(function* () {
      const at = yield* now;
      const queueId = randomUUID();
      return yield* sql.transaction((tx) =>
        Effect.gen(function* () {
          if (sql.dialect === "postgres")
            yield* tx
              .query("SELECT pg_advisory_xact_lock($1)", [queueLockKey])
              .pipe(Effect.mapError(storeError));
          if ((yield* countUpTo(tx, "", [], limits.maxPendingTotal)) >= limits.maxPendingTotal)
            return yield* Effect.fail(
              new ReviewQueueFullError({
                message: `the review queue is full (${limits.maxPendingTotal} pending items)`,
                scope: "total",
                limit: limits.maxPendingTotal,
              }),
            );
          if (
            (yield* countUpTo(tx, "WHERE user_id = $1", [item.userId], limits.maxPendingPerUser)) >=
            limits.maxPendingPerUser
          )
            return yield* Effect.fail(
              new ReviewQueueFullError({
                message: `user ${item.userId} already has ${limits.maxPendingPerUser} items waiting for review`,
                scope: "user",
                limit: limits.maxPendingPerUser,
              }),
            );
          const rows = yield* tx
            .query(
              `INSERT INTO veracity_review_queue
                 (queue_id, user_id, content, memory_type, source, evidence, validation, submitted_at)
               VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8) RETURNING *`,
              [
                queueId,
                item.userId,
                item.content,
                item.memoryType,
                item.source,
                encodeEvidence(item.evidence),
                encodeValidation(item.validation),
                at,
              ],
            )
            .pipe(Effect.mapError(storeError));
          yield* audit(tx, { action: "enqueue", actor: item.userId, userId: item.userId, queueId, at });
          return yield* decodePending(rows[0]);
        }),
      );
    }).pipe(Effect.catchTag("StorageError", (error) => Effect.fail(storeError(error)))),

  pending: (userId, limit = 10) =>
    sql
      .query(
        "SELECT * FROM veracity_review_queue WHERE user_id = $1 ORDER BY submitted_at, queue_id LIMIT $2",
        [userId, Math.max(1, Math.min(limit, limits.maxResults))],
      )
      .pipe(
        Effect.mapError(storeError),
        Effect.flatMap((rows) => Effect.forEach(rows, decodePending)),
      ),

  getById: (queueId, userId) =>
    sql
      .query("SELECT * FROM veracity_review_queue WHERE queue_id = $1 AND user_id = $2", [queueId, userId])
      .pipe(
        Effect.mapError(storeError),
        Effect.flatMap((rows) => pendingOrNotFound(rows[0], queueId)),
      ),

  approve: (queueId, reviewer) =>
    Effect.gen(function* () {
      const at = yield* now;
      return yield* sql.transaction((tx) =>
        Effect.gen(function* () {
          const item = yield* takeItem(tx, queueId, reviewer);
          const memory = yield* insertMemory(
            tx,
            {
              userId: item.userId,
              content: item.content,
              memoryType: item.memoryType,
              source: item.source,
              evidence: {
                ...item.evidence,
                confidence: "high",
                metadata: { ...item.evidence.metadata, reviewedBy: reviewer, reviewedAt: at.toISOString() },
              },
            },
            { id: randomUUID(), at, maxMemoriesPerUser: limits.maxMemoriesPerUser, originQueueId: queueId },
          );
          yield* audit(tx, {
            action: "approve",
            actor: reviewer,
            userId: item.userId,
            queueId,
            memoryId: memory.id,
            at,
          });
          return memory;
        }),
      );
    }).pipe(Effect.catchTag("StorageError", (error) => Effect.fail(storeError(error)))),

  reject: (queueId, reviewer, reason) =>
    Effect.gen(function* () {
      if (reason.trim().length === 0 || reason.length > limits.maxReasonLength)
        return yield* Effect.fail(
          new InputError({
            code: "invalid_reason",
            message: `a rejection needs a reason of 1 to ${limits.maxReasonLength} characters`,
          }),
        );
      const at = yield* now;
      yield* sql.transaction((tx) =>
        Effect.gen(function* () {
          const item = yield* takeItem(tx, queueId, reviewer);
          yield* audit(tx, { action: "reject", actor: reviewer, userId: item.userId, queueId, reason, at });
        }),
      );
    }).pipe(Effect.catchTag("StorageError", (error) => Effect.fail(storeError(error)))),

  audit: (userId, limit = 100) =>
    sql
      .query("SELECT * FROM veracity_memory_audit WHERE user_id = $1 ORDER BY seq LIMIT $2", [
        userId,
        Math.max(1, Math.min(limit, 10_000)),
      ])
      .pipe(
        Effect.mapError(storeError),
        Effect.flatMap((rows) => Effect.forEach(rows, decodeAudit)),
      ),
});
