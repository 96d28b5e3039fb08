import { Context, Effect, Layer } from "effect";
import type { RiskLevel } from "../model/risk.js";

/** The specification's events, named `noun.verb-ed`. */
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

export const makeEventBus = (onError: (error: unknown) => void = () => {}): EventBusShape => {
  const handlers = new Set<EventHandler>();
  return {
    publish: (event) =>
      Effect.forEach(
        [...handlers],
        (handler) =>
          Effect.tryPromise(async () => handler(event)).pipe(
            Effect.catchAll((error) => Effect.sync(() => onError(error))),
          ),
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
