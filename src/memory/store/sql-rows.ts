import { Clock, Effect, Schema } from "effect";
import type { StorageError } from "../../storage/errors.js";
import type { SqlExecutor } from "../../storage/sql-client.js";
import { lshKeys } from "../dedup/minhash.js";
import { hashWordSet } from "../dedup/word-hashes.js";
import { wordSet } from "../dedup/word-set.js";
import { MemoryStoreError, MemoryStoreFullError } from "../errors.js";
import { EvidenceObject } from "../evidence/evidence-object.js";
import { type Memory, MemoryType, ValidationResult } from "../model.js";
import {
  type AuditAction,
  AuditAction as AuditActionSchema,
  type AuditEntry,
  type NewMemory,
  type PendingMemory,
} from "./records.js";

const Timestamp = Schema.Union(Schema.DateFromSelf, Schema.Date);
const Json = <A, I>(schema: Schema.Schema<A, I>) => Schema.Union(schema, Schema.parseJson(schema));

const MemoryRow = Schema.Struct({
  id: Schema.String,
  user_id: Schema.String,
  content: Schema.String,
  memory_type: MemoryType,
  source: Schema.String,
  evidence: Json(EvidenceObject),
  created_at: Timestamp,
});

const PendingRow = Schema.Struct({
  queue_id: Schema.String,
  user_id: Schema.String,
  content: Schema.String,
  memory_type: MemoryType,
  source: Schema.String,
  evidence: Json(EvidenceObject),
  validation: Json(ValidationResult),
  submitted_at: Timestamp,
});

const AuditRow = Schema.Struct({
  action: AuditActionSchema,
  actor: Schema.String,
  user_id: Schema.String,
  queue_id: Schema.NullOr(Schema.String),
  memory_id: Schema.NullOr(Schema.String),
  reason: Schema.NullOr(Schema.String),
  at: Timestamp,
});

export const storeError = (error: StorageError): MemoryStoreError =>
  new MemoryStoreError({ message: `${error.operation}: ${error.message}`, cause: error });

const decode =
  <A, I>(schema: Schema.Schema<A, I>, what: string) =>
  (row: unknown): Effect.Effect<A, MemoryStoreError> =>
    Schema.decodeUnknown(schema)(row).pipe(
      Effect.mapError(
        (cause) => new MemoryStoreError({ message: `unreadable ${what} row: ${cause.message}`, cause }),
      ),
    );

export const decodeMemory = (row: unknown): Effect.Effect<Memory, MemoryStoreError> =>
  decode(
    MemoryRow,
    "memory",
  )(row).pipe(
    Effect.map((r) => ({
      id: r.id,
      userId: r.user_id,
      content: r.content,
      memoryType: r.memory_type,
      source: r.source,
      evidence: r.evidence,
      createdAt: r.created_at,
    })),
  );

export const decodePending = (row: unknown): Effect.Effect<PendingMemory, MemoryStoreError> =>
  decode(
    PendingRow,
    "review queue",
  )(row).pipe(
    Effect.map((r) => ({
      queueId: r.queue_id,
      userId: r.user_id,
      content: r.content,
      memoryType: r.memory_type,
      source: r.source,
      evidence: r.evidence,
      validation: r.validation,
      submittedAt: r.submitted_at,
    })),
  );

export const decodeAudit = (row: unknown): Effect.Effect<AuditEntry, MemoryStoreError> =>
  decode(
    AuditRow,
    "audit",
  )(row).pipe(
    Effect.map((r) => ({
      action: r.action,
      actor: r.actor,
      userId: r.user_id,
      ...(r.queue_id === null ? {} : { queueId: r.queue_id }),
      ...(r.memory_id === null ? {} : { memoryId: r.memory_id }),
      ...(r.reason === null ? {} : { reason: r.reason }),
      at: r.at,
    })),
  );

export const encodeEvidence = (evidence: EvidenceObject): string =>
  JSON.stringify(Schema.encodeSync(EvidenceObject)(evidence));

export const encodeValidation = (validation: ValidationResult): string =>
  JSON.stringify(Schema.encodeSync(ValidationResult)(validation));

export const now = Clock.currentTimeMillis.pipe(Effect.map((millis) => new Date(millis)));

export const memoryColumns = "id, user_id, content, memory_type, source, evidence, created_at";

/** The MinHash band keys of a text, as decimal strings for a `bigint[]` parameter. */
export const bandKeysOf = (text: string): string[] => lshKeys(hashWordSet(wordSet(text))).map(String);

export const audit = (
  tx: SqlExecutor,
  entry: {
    action: AuditAction;
    actor: string;
    userId: string;
    queueId?: string;
    memoryId?: string;
    reason?: string;
    at: Date;
  },
) =>
  tx
    .query(
      "INSERT INTO veracity_memory_audit (action, actor, user_id, queue_id, memory_id, reason, at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
      [
        entry.action,
        entry.actor,
        entry.userId,
        entry.queueId ?? null,
        entry.memoryId ?? null,
        entry.reason ?? null,
        entry.at,
      ],
    )
    .pipe(Effect.mapError(storeError));

/** Inserts a memory and its band keys (inside the caller's transaction), refusing it when the user is at the limit. */
export const insertMemory = (
  tx: SqlExecutor,
  memory: NewMemory,
  options: { id: string; at: Date; maxMemoriesPerUser: number; originQueueId?: string },
): Effect.Effect<Memory, MemoryStoreError | MemoryStoreFullError> =>
  Effect.gen(function* () {
    // One counter row per user: the increment locks it, so concurrent inserts cannot pass the limit together.
    const counted = yield* tx
      .query(
        `INSERT INTO veracity_memory_counts (user_id, n) VALUES ($1, 1)
         ON CONFLICT (user_id) DO UPDATE SET n = veracity_memory_counts.n + 1
           WHERE veracity_memory_counts.n < $2
         RETURNING n`,
        [memory.userId, options.maxMemoriesPerUser],
      )
      .pipe(Effect.mapError(storeError));
    if (counted.length === 0)
      return yield* Effect.fail(
        new MemoryStoreFullError({
          message: `user ${memory.userId} already holds the most memories allowed (${options.maxMemoriesPerUser})`,
          limit: options.maxMemoriesPerUser,
        }),
      );
    const rows = yield* tx
      .query(
        `INSERT INTO veracity_memories
           (id, user_id, content, memory_type, source, evidence, valid_until, created_at, origin_queue_id)
         VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9)
         RETURNING ${memoryColumns}`,
        [
          options.id,
          memory.userId,
          memory.content,
          memory.memoryType,
          memory.source,
          encodeEvidence(memory.evidence),
          memory.evidence.validityHorizon ?? null,
          options.at,
          options.originQueueId ?? null,
        ],
      )
      .pipe(Effect.mapError(storeError));
    yield* tx
      .query(
        "INSERT INTO veracity_memory_bands (user_id, band_key, memory_id) SELECT $1, unnest($2::bigint[]), $3",
        [memory.userId, bandKeysOf(memory.content), options.id],
      )
      .pipe(Effect.mapError(storeError));
    return yield* decodeMemory(rows[0]);
  });
