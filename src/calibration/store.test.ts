import { Effect, Exit, Scope } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlClientService } from "../storage/sql-client.js";
import { storageBackends } from "../storage/testing.js";
import { type CalibrationStore, makeCalibrationStore } from "./store.js";

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect);
const fileJson = (a: number) => JSON.stringify({ layers: { grounding: { a, b: 1 } }, method: "platt" });

describe.each(storageBackends())("calibration store: $name", (backend) => {
  let scope: Scope.CloseableScope;
  let client: SqlClientService;
  let store: CalibrationStore;
  beforeAll(async () => {
    scope = await run(Scope.make());
    client = await run(Scope.extend(backend.open(), scope));
    store = await run(makeCalibrationStore(client));
  });
  afterAll(async () => {
    if (scope) await run(Scope.close(scope, Exit.void));
  });

  it("saves versions and loads the newest", async () => {
    expect(await run(store.save("prod", fileJson(-3)))).toBe(1);
    expect(await run(store.save("prod", fileJson(-5)))).toBe(2);
    expect(await run(store.load("prod"))).toEqual({ grounding: { a: -5, b: 1 } });
  });

  it.each([
    ["an unknown name", (): Effect.Effect<unknown, unknown> => store.load("nobody")],
    ["a malformed file", () => store.save("bad", '{"layers":{"nope":{}}}')],
    ["a bad name", () => store.save("../x", fileJson(1))],
  ])("fails with an InputError on %s", async (_, attempt) => {
    const exit = await Effect.runPromiseExit(attempt());
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toMatch(/InputError/);
  });

  it("refuses a stored file that was corrupted in the database", async () => {
    await run(store.save("corrupt", fileJson(-2)));
    await run(client.query("UPDATE veracity_calibrations SET file_json = '{}' WHERE name = 'corrupt'"));
    const exit = await Effect.runPromiseExit(store.load("corrupt"));
    expect(Exit.isFailure(exit)).toBe(true);
  });
});
