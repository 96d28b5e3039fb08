import { Deferred, Effect, Exit, Fiber, FiberId } from "effect";
import { describe, expect, it } from "vitest";
import { pairedCostRatio } from "../testing/measured-cost.js";
import { type FifoSemaphore, makeFifoSemaphore } from "./fifo-semaphore.js";

/** One turn of the event loop: lets every fiber that can run do so. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** An effect that holds its permit until `gate` opens, noting when it started and ended. */
const heldUntil = (gate: Deferred.Deferred<void>, log: string[], name: string) =>
  Effect.sync(() => log.push(`start ${name}`)).pipe(
    Effect.zipRight(Deferred.await(gate)),
    Effect.zipRight(Effect.sync(() => log.push(`end ${name}`))),
  );

/**
 * Runs `count` effects through `semaphore` at once, each holding its permit for a turn; how many ran at the same
 * time at most, and the order they finished in.
 */
const runAtOnce = async (semaphore: FifoSemaphore, count: number) => {
  const order: number[] = [];
  let running = 0;
  let most = 0;
  const step = (index: number) =>
    semaphore.withPermit(
      Effect.gen(function* () {
        running += 1;
        most = Math.max(most, running);
        yield* Effect.promise(settle);
        order.push(index);
        running -= 1;
      }),
    );
  await Promise.all(Array.from({ length: count }, (_, index) => Effect.runPromise(step(index))));
  return { most, order };
};

describe("makeFifoSemaphore", () => {
  it("runs waiters one at a time, in the order they asked", async () => {
    const semaphore = makeFifoSemaphore(1);
    const { most, order } = await runAtOnce(semaphore, 50);
    expect(order).toEqual(Array.from({ length: 50 }, (_, index) => index));
    expect(most).toBe(1);
    expect(semaphore.waiting()).toBe(0);
  });

  it("lets as many run at once as it has permits, and no more", async () => {
    expect((await runAtOnce(makeFifoSemaphore(3), 40)).most).toBe(3);
  });

  it("gives the permit back when the effect fails or dies", async () => {
    const semaphore = makeFifoSemaphore(1);
    const failed = await Effect.runPromiseExit(semaphore.withPermit(Effect.fail("no")));
    const died = await Effect.runPromiseExit(semaphore.withPermit(Effect.die(new Error("boom"))));
    expect(Exit.isFailure(failed) && Exit.isFailure(died)).toBe(true);
    expect(await Effect.runPromise(semaphore.withPermit(Effect.succeed("next")))).toBe("next");
  });

  it("drops a waiter interrupted before its turn and serves the next", async () => {
    const semaphore = makeFifoSemaphore(1);
    const log: string[] = [];
    const gate = Deferred.unsafeMake<void>(FiberId.none);
    const holder = Effect.runFork(semaphore.withPermit(heldUntil(gate, log, "holder")));
    await settle();
    const first = Effect.runFork(semaphore.withPermit(Effect.sync(() => log.push("first"))));
    const second = Effect.runFork(semaphore.withPermit(Effect.sync(() => log.push("second"))));
    await settle();
    expect(semaphore.waiting()).toBe(2);
    await Effect.runPromise(Fiber.interrupt(first));
    expect(semaphore.waiting()).toBe(1);
    Deferred.unsafeDone(gate, Exit.void);
    await Effect.runPromise(Fiber.join(holder));
    await Effect.runPromise(Fiber.join(second));
    expect(log).toEqual(["start holder", "end holder", "second"]);
  });

  it("passes the permit on when a waiter is interrupted after the permit reached it", async () => {
    const semaphore = makeFifoSemaphore(1);
    const log: string[] = [];
    let first: Fiber.RuntimeFiber<number> | undefined;
    // The holder asks for the first waiter's interruption and then releases: the release hands the permit to
    // that waiter before it has seen its interruption.
    const holder = Effect.runFork(
      semaphore.withPermit(
        Effect.promise(settle).pipe(
          Effect.zipRight(Effect.sync(() => first?.unsafeInterruptAsFork(FiberId.none))),
        ),
      ),
    );
    first = Effect.runFork(semaphore.withPermit(Effect.sync(() => log.push("first"))));
    const second = Effect.runFork(semaphore.withPermit(Effect.sync(() => log.push("second"))));
    await Effect.runPromise(Fiber.join(holder));
    const firstExit = await Effect.runPromise(Fiber.await(first));
    await Effect.runPromise(Fiber.join(second));
    expect(Exit.isInterrupted(firstExit)).toBe(true);
    expect(log).toEqual(["second"]);
    expect(await Effect.runPromise(semaphore.withPermit(Effect.succeed("free")))).toBe("free");
  });

  it("loses no permit when waiters are interrupted at any moment", async () => {
    // Interruptions land before, at and after each waiter's turn: afterwards every permit is free again.
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const semaphore = makeFifoSemaphore(2);
    const fibers = Array.from({ length: 300 }, () =>
      Effect.runFork(semaphore.withPermit(Effect.promise(settle))),
    );
    for (const fiber of fibers) {
      if (random() < 0.4) fiber.unsafeInterruptAsFork(FiberId.none);
      if (random() < 0.3) await settle();
    }
    await Promise.all(fibers.map((fiber) => Effect.runPromise(Fiber.await(fiber))));
    expect((await runAtOnce(semaphore, 6)).most).toBe(2);
    expect(semaphore.waiting()).toBe(0);
  });

  it("costs about twice as much for twice as many waiters", async () => {
    // A release that woke every waiter would make n waiters cost n squared: doubling them, four times as much.
    const atOnce = async (waiters: number) => {
      const step = makeFifoSemaphore(1).withPermit(Effect.promise(settle));
      await Promise.all(Array.from({ length: waiters }, () => Effect.runPromise(step)));
    };
    // Counted on this thread alone, the median of seven pairs: a run of 3,000 takes about a tenth of a second,
    // long enough to stand clear of the scheduler's noise.
    expect(await pairedCostRatio(atOnce, 3_000, 6_000)).toBeLessThan(2.5);
  });
});
