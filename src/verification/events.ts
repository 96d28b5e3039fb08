import { Cause, Context, Effect, Layer } from "effect";
import type { RiskLevel } from "../model/risk.js";

/**
 * What the verification service publishes to subscribers, named `noun.verb-ed`: a verification completed
 * (with its outcome), failed (with the error), or had a mitigation applied.
 */
export type VerificationEvent =
  | {
      readonly type: "verification.completed";
      readonly payload: {
        readonly riskLevel: RiskLevel;
        readonly layersRun: number;
        readonly passed: boolean;
        readonly overallConfidence: number;
        readonly totalLatencyMs: number;
        readonly mitigationsApplied: number;
      };
    }
  | {
      readonly type: "verification.failed";
      readonly payload: {
        readonly riskLevel?: RiskLevel;
        readonly error: string;
        readonly totalLatencyMs: number;
      };
    }
  | {
      readonly type: "verification.mitigation-applied";
      readonly payload: { readonly action: string; readonly reason: string; readonly riskLevel: RiskLevel };
    };

export type EventHandler = (event: VerificationEvent) => void | Promise<void>;

export interface EventBusShape {
  /** Delivers to every subscriber; a subscriber's error is reported to `onError` and never reaches the caller. */
  readonly publish: (event: VerificationEvent) => Effect.Effect<void>;
  /** Returns the function that unsubscribes. */
  readonly subscribe: (handler: EventHandler) => () => void;
}

export class EventBus extends Context.Tag("veracity/EventBus")<EventBus, EventBusShape>() {}

const isPromiseLike = (value: unknown): value is PromiseLike<void> =>
  typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";

export const makeEventBus = (onError: (error: unknown) => void = () => {}): EventBusShape => {
  const handlers = new Set<EventHandler>();
  return {
    // A handler is called in place; only a handler that returns a promise is waited for (as a promise), so a
    // verification with synchronous subscribers (metrics) never leaves its fiber for an async boundary.
    publish: (event) =>
      handlers.size === 0
        ? Effect.void
        : Effect.forEach(
            [...handlers],
            (handler) =>
              Effect.suspend(() => {
                let returned: void | Promise<void>;
                try {
                  returned = handler(event);
                } catch (error) {
                  // As a rejected promise would reach it: wrapped the way Effect.tryPromise wraps it.
                  onError(new Cause.UnknownException(error));
                  return Effect.void;
                }
                if (!isPromiseLike(returned)) return Effect.void;
                return Effect.tryPromise(() => returned).pipe(
                  Effect.catchAll((error) => Effect.sync(() => onError(error))),
                );
              }),
            { discard: true },
          ),
    subscribe: (handler) => {
      handlers.add(handler);
      return () => {
        handlers.delete(handler);
      };
    },
  };
};

export const EventBusLive = Layer.sync(EventBus, () => makeEventBus());
