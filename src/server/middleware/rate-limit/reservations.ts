import { Effect } from "effect";
import type { StorageError } from "../../../storage/errors.js";
import type { SqlClientService } from "../../../storage/sql-client.js";

export interface RateDecision {
  readonly allowed: boolean;
  readonly retryAfterMs: number;
}

/** Most keys whose reservations one instance keeps; the oldest are dropped beyond it (they re-reserve). */
const maxTrackedKeys = 10_000;
/** Old windows are deleted about once every this many reservations, so the table stays small. */
const cleanupEvery = 100;

/**
 * Per-key fixed-window rate limiting whose count lives in SQL, shared by every instance. To spare the database
 * one write per request, an instance reserves hits in small batches (`limit / 100`, at most 20, 1 for small
 * limits) with one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` and spends them locally. Hits are reserved
 * before they are used, so a key never gets more than the limit; with N instances it may be refused up to
 * N x (batch - 1) requests early in a window.
 */
export const makeRateReservations = (
  sql: SqlClientService,
  limit: { readonly requests: number; readonly windowMs: number },
) => {
  const batch = Math.max(1, Math.min(20, Math.floor(limit.requests / 100)));
  /**
   * Each key's window as this instance knows it: the hits it reserved and has left, and whether the shared count
   * has reached the limit. A window's count only grows, so once SQL answers that the limit is reached, every later
   * request of that key in that window is refused here without asking again: a client that keeps sending after
   * its limit cost one SQL write per refusal before (about 2 ms of the server's thread each on the embedded
   * database), more than the refusal itself.
   */
  const local = new Map<string, { windowStart: number; remaining: number; spent: boolean }>();
  let reservationsMade = 0;

  const reserve = (keyHash: string, windowStart: number): Effect.Effect<number, StorageError> =>
    Effect.gen(function* () {
      const rows = yield* sql.query<{ hits: number }>(
        `INSERT INTO veracity_server_rate_windows (key_hash, window_start, hits) VALUES ($1, $2, $3)
         ON CONFLICT (key_hash, window_start) DO UPDATE SET hits = veracity_server_rate_windows.hits + $3
         RETURNING hits`,
        [keyHash, windowStart, batch],
      );
      reservationsMade += 1;
      if (reservationsMade % cleanupEvery === 0)
        yield* Effect.ignore(
          sql.query("DELETE FROM veracity_server_rate_windows WHERE window_start < $1", [
            windowStart - limit.windowMs,
          ]),
        );
      const hitsAfter = Number(rows[0]?.hits ?? Number.POSITIVE_INFINITY);
      const before = hitsAfter - batch;
      return Math.max(0, Math.min(batch, limit.requests - before));
    });

  const take = (keyHash: string, now: number): Effect.Effect<RateDecision, StorageError> =>
    Effect.gen(function* () {
      const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
      const retryAfterMs = windowStart + limit.windowMs - now;
      let entry = local.get(keyHash);
      if (entry === undefined || entry.windowStart !== windowStart) {
        entry = { windowStart, remaining: 0, spent: false };
        local.delete(keyHash);
        if (local.size >= maxTrackedKeys) {
          const oldest = local.keys().next().value;
          if (oldest !== undefined) local.delete(oldest);
        }
        local.set(keyHash, entry);
      }
      if (entry.remaining === 0 && !entry.spent) {
        // Concurrent requests may reserve at once: each adds its own batch, nothing is lost or double-spent.
        const reserved = yield* reserve(keyHash, windowStart);
        entry.remaining += reserved;
        if (reserved === 0) entry.spent = true;
      }
      if (entry.remaining === 0) return { allowed: false, retryAfterMs };
      entry.remaining -= 1;
      return { allowed: true, retryAfterMs };
    });

  /**
   * `take` without Effect when this instance can decide alone (the common case), else undefined: a hit reserved
   * earlier in this window is left, or the key's window is known to be spent.
   */
  const takeReserved = (keyHash: string, now: number): RateDecision | undefined => {
    const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
    const entry = local.get(keyHash);
    if (entry === undefined || entry.windowStart !== windowStart) return undefined;
    const retryAfterMs = windowStart + limit.windowMs - now;
    if (entry.remaining === 0) return entry.spent ? { allowed: false, retryAfterMs } : undefined;
    entry.remaining -= 1;
    return { allowed: true, retryAfterMs };
  };

  return { take, takeReserved, batch };
};
