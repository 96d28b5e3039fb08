import { Data, type Effect } from "effect";
import type { AuditLogShape } from "./audit-log.js";
import type { AuditAppend, AuditEntry } from "./entry.js";

/** The appender's queue is full: the caller should answer "try later" rather than skip the record. */
export class AuditBacklogError extends Data.TaggedError("AuditBacklogError")<{
  readonly message: string;
  readonly queued: number;
}> {}

export interface GroupCommitOptions {
  /** Most entries written in one transaction (default 256). */
  readonly maxBatch?: number;
  /** Most entries waiting for a write; one more is refused with `AuditBacklogError` (default 10,000). */
  readonly maxQueued?: number;
  /**
   * A transaction starts at most once per this many milliseconds, so the entries arriving meanwhile share it
   * (PostgreSQL's `commit_delay`, for the chain). An append that comes when no transaction started in the last
   * `windowMs` (an idle log) is written on the next turn of the event loop; one that comes sooner waits for the
   * window to end. Default 0: a batch starts as soon as the previous one ends.
   */
  readonly windowMs?: number;
}

export interface GroupCommitAppender {
  /** Resolves once the entry is committed to the chain; rejects when it could not be (never silently lost). */
  readonly append: (input: AuditAppend) => Promise<AuditEntry>;
  /** Resolves when every entry accepted so far has been written or has failed. */
  readonly drain: () => Promise<void>;
}

interface Waiting {
  readonly input: AuditAppend;
  readonly resolve: (entry: AuditEntry) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * Group commit for a busy service: appends made in the same turn of the event loop, or while a transaction is
 * being written, go together in one transaction, in arrival order, so the chain costs one transaction per
 * batch rather than per request. With `windowMs`, a busy log also waits out a short window between transactions
 * so that more entries share each one.
 * Each caller still waits for its own entry to be committed, so a response is never handed out before its
 * record exists. When a batch fails, each of its entries is retried alone, so one bad entry fails only itself.
 */
export const makeGroupCommitAppender = (
  log: AuditLogShape,
  run: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>,
  options: GroupCommitOptions = {},
): GroupCommitAppender => {
  const maxBatch = Math.max(1, options.maxBatch ?? 256);
  const maxQueued = Math.max(1, options.maxQueued ?? 10_000);
  const windowMs = Math.max(0, options.windowMs ?? 0);
  const queue: Waiting[] = [];
  let writing: Promise<void> | undefined;
  let lastStartedAt = Number.NEGATIVE_INFINITY;

  // The next turn of the event loop, or the end of the window the last transaction opened when that is later.
  // The next turn at the least: an embedded database (PGlite) runs its transaction without yielding, so appends
  // of requests handled in this same turn would otherwise each get a transaction of their own.
  const nextStart = () =>
    new Promise<void>((started) => {
      const wait = lastStartedAt + windowMs - performance.now();
      if (wait > 0) setTimeout(started, wait);
      else setImmediate(started);
    });

  const writeBatch = async (batch: readonly Waiting[]): Promise<void> => {
    try {
      const stored = await run(log.appendMany(batch.map((waiting) => waiting.input)));
      for (const [index, waiting] of batch.entries()) waiting.resolve(stored[index] as AuditEntry);
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      for (const waiting of batch) await writeBatch([waiting]);
    }
  };

  const writeAll = async (): Promise<void> => {
    while (queue.length > 0) {
      lastStartedAt = performance.now();
      await writeBatch(queue.splice(0, maxBatch));
      if (queue.length > 0 && windowMs > 0) await nextStart();
    }
    writing = undefined;
  };

  return {
    append: (input) =>
      new Promise<AuditEntry>((resolve, reject) => {
        if (queue.length >= maxQueued) {
          reject(
            new AuditBacklogError({
              message: `the audit trail has ${queue.length} entries waiting to be written`,
              queued: queue.length,
            }),
          );
          return;
        }
        queue.push({ input, resolve, reject });
        writing ??= nextStart().then(writeAll);
      }),
    drain: async () => {
      while (writing !== undefined) await writing;
    },
  };
};
