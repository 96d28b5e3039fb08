import { Effect, Exit, Scope } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlClientService } from "../storage/sql-client.js";
import { storageBackends } from "../storage/testing.js";
import { type CalibrationOutcome, makeCalibrationOutcomeStore } from "./outcome-store.js";

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect);

const outcomes = (count: number, layer: CalibrationOutcome["layer"], from = 0): CalibrationOutcome[] =>
  Array.from({ length: count }, (_, index) => ({
    layer,
    rawScore: ((from + index) % 10) / 10,
    supported: (from + index) % 2 === 0,
  }));

describe.each(storageBackends())("calibration outcome store: $name", (backend) => {
  let scope: Scope.CloseableScope;
  let client: SqlClientService;
  beforeAll(async () => {
    scope = await run(Scope.make());
    client = await run(Scope.extend(backend.open(), scope));
  });
  afterAll(async () => {
    if (scope) await run(Scope.close(scope, Exit.void));
  });

  it("records outcomes as labelled pairs, oldest first, with the newest id", async () => {
    const store = await run(makeCalibrationOutcomeStore(client));
    expect(await run(store.newestId)).toBe(0);
    expect(
      await run(
        store.record("rita", [{ layer: "nli", rawScore: 0.9, supported: false, verificationId: "v1" }]),
      ),
    ).toBe(1);
    expect(await run(store.record("rita", outcomes(3, "semantic-entropy")))).toBe(3);
    const pairs = await run(store.pairs);
    expect(pairs.map((pair) => [pair.layer, pair.score, pair.label])).toEqual([
      ["nli", 0.9, "hallucinated"],
      ["semantic-entropy", 0, "supported"],
      ["semantic-entropy", 0.1, "hallucinated"],
      ["semantic-entropy", 0.2, "supported"],
    ]);
    expect(new Set(pairs.map((pair) => pair.id)).size).toBe(4);
    expect(await run(store.newestId)).toBeGreaterThan(0);
    const [row] = await run(
      client.query<{ reviewer: string; verification_id: string }>(
        "SELECT reviewer, verification_id FROM veracity_calibration_outcomes WHERE layer = 'nli'",
      ),
    );
    expect(row).toEqual({ reviewer: "rita", verification_id: "v1" });
  });

  it("keeps the newest outcomes of each layer, so the table cannot grow without bound", async () => {
    await run(client.query("DELETE FROM veracity_calibration_outcomes"));
    const store = await run(makeCalibrationOutcomeStore(client, { maxPerLayer: 5 }));
    await run(store.record("rita", outcomes(4, "nli")));
    await run(store.record("rita", outcomes(4, "nli", 4)));
    await run(store.record("rita", outcomes(2, "multi-source")));
    const pairs = await run(store.pairs);
    // The five newest nli outcomes (scores 0.3 to 0.7) and both multi-source ones.
    expect(pairs.filter((pair) => pair.layer === "nli").map((pair) => pair.score)).toEqual([
      0.3, 0.4, 0.5, 0.6, 0.7,
    ]);
    expect(pairs.filter((pair) => pair.layer === "multi-source")).toHaveLength(2);
  });

  it.each([
    ["too many outcomes in one call", outcomes(3, "nli")],
    [
      "a raw score outside [0, 1]",
      [{ layer: "nli", rawScore: 1.5, supported: true }] as CalibrationOutcome[],
    ],
    [
      "a score that is not a number",
      [{ layer: "nli", rawScore: Number.NaN, supported: true }] as CalibrationOutcome[],
    ],
    [
      "an overlong verification id",
      [
        { layer: "nli", rawScore: 0.5, supported: true, verificationId: "x".repeat(129) },
      ] as CalibrationOutcome[],
    ],
  ])("refuses %s with an InputError and records nothing", async (_, given) => {
    await run(client.query("DELETE FROM veracity_calibration_outcomes"));
    const store = await run(makeCalibrationOutcomeStore(client, { maxPerCall: 2 }));
    const exit = await Effect.runPromiseExit(store.record("rita", given));
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toMatch(/InputError/);
    expect(await run(store.pairs)).toEqual([]);
  });

  it("keeps every outcome of concurrent writers", async () => {
    await run(client.query("DELETE FROM veracity_calibration_outcomes"));
    const store = await run(makeCalibrationOutcomeStore(client));
    await Promise.all(
      Array.from({ length: 8 }, (_, writer) => run(store.record(`r${writer}`, outcomes(25, "nli")))),
    );
    expect(await run(store.pairs)).toHaveLength(200);
  });
});
