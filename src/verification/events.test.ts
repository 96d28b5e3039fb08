import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { makeEventBus, type VerificationEvent } from "./events.js";

const completed: VerificationEvent = {
  type: "verification.completed",
  payload: {
    riskLevel: "low",
    layersRun: 1,
    passed: true,
    overallConfidence: 0.9,
    totalLatencyMs: 1,
    mitigationsApplied: 0,
  },
};

describe("makeEventBus", () => {
  it("calls synchronous subscribers in order and waits for asynchronous ones", async () => {
    const bus = makeEventBus();
    const calls: string[] = [];
    bus.subscribe(() => {
      calls.push("sync");
    });
    bus.subscribe(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      calls.push("async");
    });
    await Effect.runPromise(bus.publish(completed));
    expect(calls).toEqual(["sync", "async"]);
  });

  it("reports a throwing or rejecting subscriber to onError, never to the publisher", async () => {
    const errors: unknown[] = [];
    const bus = makeEventBus((error) => errors.push(error));
    const delivered: string[] = [];
    bus.subscribe(() => {
      throw new Error("sync bug");
    });
    bus.subscribe(async () => {
      throw new Error("async bug");
    });
    bus.subscribe((event) => {
      delivered.push(event.type);
    });
    await Effect.runPromise(bus.publish(completed));
    expect(delivered).toEqual(["verification.completed"]);
    // Both arrive the same way, wrapped as Effect.tryPromise wraps a rejection, with the thrown error as cause.
    expect(errors.map((error) => ((error as { cause?: Error }).cause as Error).message)).toEqual([
      "sync bug",
      "async bug",
    ]);
  });

  it("stops delivering to an unsubscribed handler", async () => {
    const bus = makeEventBus();
    let count = 0;
    const stop = bus.subscribe(() => {
      count += 1;
    });
    await Effect.runPromise(bus.publish(completed));
    stop();
    await Effect.runPromise(bus.publish(completed));
    expect(count).toBe(1);
  });
});
