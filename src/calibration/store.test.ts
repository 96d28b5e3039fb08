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

  it("keeps the newest versions of a name and refuses a new name beyond the limit", async () => {
    const small = await run(makeCalibrationStore(client, { maxVersions: 3, maxNames: 6 }));
    for (const a of [-1, -2, -3, -4, -5]) await run(small.save("bounded", fileJson(a)));
    const rows = await run(
      client.query<{ version: number }>(
        "SELECT version FROM veracity_calibrations WHERE name = 'bounded' ORDER BY version",
      ),
    );
    // Versions 1 and 2 were dropped; the numbering goes on from the newest.
    expect(rows.map((row) => Number(row.version))).toEqual([3, 4, 5]);
    expect(await run(small.load("bounded"))).toEqual({ grounding: { a: -5, b: 1 } });
    // Earlier tests stored "prod", "corrupt" (maybe) and "bounded"; fill up to 6 names, then one more fails.
    for (let index = 0; ; index++) {
      const exit = await Effect.runPromiseExit(small.save(`name-${index}`, fileJson(-1)));
      if (Exit.isFailure(exit)) {
        expect(JSON.stringify(exit.cause)).toMatch(/6 calibration names/);
        break;
      }
      expect(index).toBeLessThan(6);
    }
    const [names] = await run(
      client.query<{ count: number | string }>(
        "SELECT COUNT(DISTINCT name) AS count FROM veracity_calibrations",
      ),
    );
    expect(Number(names?.count)).toBe(6);
    // A name already stored can still get new versions.
    expect(await run(small.save("bounded", fileJson(-6)))).toBe(6);
  });

  it("refuses a stored file that was corrupted in the database", async () => {
    await run(store.save("corrupt", fileJson(-2)));
    await run(client.query("UPDATE veracity_calibrations SET file_json = '{}' WHERE name = 'corrupt'"));
    const exit = await Effect.runPromiseExit(store.load("corrupt"));
    expect(Exit.isFailure(exit)).toBe(true);
  });
});
