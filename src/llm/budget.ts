import { Effect, FiberRef } from "effect";

/**
 * Counts the model spend of everything run inside it and, when limits are set, refuses calls that would
 * exceed them. One meter per request (the service's budget) and one per layer (its `costIncurred`);
 * meters nest, and every call is charged to all meters in scope.
 */
export interface CostMeter {
  readonly maxCost?: number;
  /** Epoch milliseconds after which no new call may start. */
  readonly deadline?: number;
  spentUsd: number;
  calls: number;
  /** Input and output tokens of those calls (as the provider reported them, else estimated). */
  tokens: number;
}

export const makeCostMeter = (
  limits: { readonly maxCost?: number; readonly deadline?: number } = {},
): CostMeter => ({
  ...(limits.maxCost === undefined ? {} : { maxCost: limits.maxCost }),
  ...(limits.deadline === undefined ? {} : { deadline: limits.deadline }),
  spentUsd: 0,
  calls: 0,
  tokens: 0,
});

/** The meters in scope of the current fiber (inherited by forked fibers). */
export const currentMeters: FiberRef.FiberRef<readonly CostMeter[]> = FiberRef.unsafeMake<
  readonly CostMeter[]
>([]);

/** Runs `effect` with `meter` charged for every model call made inside it. */
export const withMeter =
  (meter: CostMeter) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.locallyWith(effect, currentMeters, (meters) => [...meters, meter]);

/**
 * Runs `effect` under a per-request budget: model calls that would push the spend past `maxCost`, or that
 * would start after `maxLatencyMs`, fail with `ModelBudgetExceededError` instead of running.
 */
export const withRequestBudget =
  (budget: { readonly maxCost?: number; readonly maxLatencyMs?: number }) =>
  <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.gen(function* () {
      const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis);
      const meter = makeCostMeter({
        ...(budget.maxCost === undefined ? {} : { maxCost: budget.maxCost }),
        ...(budget.maxLatencyMs === undefined ? {} : { deadline: now + budget.maxLatencyMs }),
      });
      return yield* withMeter(meter)(effect);
    });
