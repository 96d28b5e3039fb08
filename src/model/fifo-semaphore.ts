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
  // A Set keeps insertion order (the queue's) and removes an interrupted waiter at once.
  const waiters = new Set<Deferred.Deferred<void>>();
  const release = (): void => {
    for (const next of waiters) {
      waiters.delete(next);
      Deferred.unsafeDone(next, Exit.void);
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
      const turn = Deferred.unsafeMake<void>(FiberId.none);
      waiters.add(turn);
      return restore(Deferred.await(turn)).pipe(
        Effect.onInterrupt(() =>
          Effect.sync(() => {
            // Still queued: it never had the permit. Otherwise the permit reached it: pass it on.
            if (!waiters.delete(turn)) release();
          }),
        ),
      );
    });
  return {
    withPermit: (effect) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.zipRight(acquire(restore), Effect.ensuring(restore(effect), Effect.sync(release))),
      ),
    waiting: () => waiters.size,
  };
};
