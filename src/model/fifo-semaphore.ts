import { Deferred, Effect, Exit, FiberId } from "effect";

/** Runs effects with at most a number of them at once; the others wait in the order they came. */
export interface FifoSemaphore {
  readonly withPermit: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>;
  /** Effects waiting for a permit now. */
  readonly waiting: () => number;
}

/**
 * A semaphore of `permits` whose release hands its permit to the longest-waiting effect, and wakes only that
 * one. Effect's own `Semaphore` (and `TSemaphore`) wakes every waiter on each release and lets them race for
 * the permit, so each release costs as much as the queue is long and a queue of n waiters costs n squared: 2,000
 * effects queued on one permit took 26 s there, and 4,000 ran the process out of memory. The embedded store's
 * statements and the model client's calls wait on a semaphore, and hundreds of requests can send theirs at once.
 *
 * A waiter interrupted before its turn leaves the queue; one interrupted after the permit was handed to it (the
 * two can cross) passes the permit on, so no permit is lost either way.
 */
export const makeFifoSemaphore = (permits: number): FifoSemaphore => {
  let free = permits;
  // The queue: an array read from `head`, each entry marked when it leaves (handed the permit, or interrupted
  // while waiting), so an interrupted waiter leaves in constant time and a release skips it. A Set kept the
  // order too, but a release that took its first entry scanned every entry deleted before it (a Set keeps them
  // as holes until it shrinks): 6,000 waiters cost four times 3,000 in that scan.
  const queue: Waiter[] = [];
  let head = 0;
  let waiting = 0;
  const release = (): void => {
    while (head < queue.length) {
      const next = queue[head] as Waiter;
      head += 1;
      // The entries already read go once they are half the array: each is moved at most once.
      if (head > compactAfter && head * 2 > queue.length) {
        queue.splice(0, head);
        head = 0;
      }
      if (!next.queued) continue;
      next.queued = false;
      waiting -= 1;
      Deferred.unsafeDone(next.turn, Exit.void);
      return;
    }
    free += 1;
  };
  const acquire = (restore: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>) =>
    Effect.suspend(() => {
      // A permit is free only when nobody waits: a release with waiters hands its permit on.
      if (free > 0) {
        free -= 1;
        return Effect.void;
      }
      const waiter: Waiter = { turn: Deferred.unsafeMake<void>(FiberId.none), queued: true };
      queue.push(waiter);
      waiting += 1;
      return restore(Deferred.await(waiter.turn)).pipe(
        Effect.onInterrupt(() =>
          Effect.sync(() => {
            // Still queued: it never had the permit, and leaves. Otherwise the permit reached it: pass it on.
            if (waiter.queued) {
              waiter.queued = false;
              waiting -= 1;
            } else release();
          }),
        ),
      );
    });
  return {
    withPermit: (effect) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(acquire(restore), Effect.ensuring(restore(effect), Effect.sync(release))),
      ),
    waiting: () => waiting,
  };
};

/** One effect waiting for a permit: `queued` until it is handed one or is interrupted. */
interface Waiter {
  readonly turn: Deferred.Deferred<void>;
  queued: boolean;
}

/** Entries read from the front of the queue kept before they are dropped (dropping moves the rest). */
const compactAfter = 1_024;
