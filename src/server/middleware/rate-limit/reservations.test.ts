import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { makePgliteClient } from "../../../storage/pglite-client.js";
import { migrateServerTables } from "../../keys/api-keys.js";
import { makeRateReservations } from "./reservations.js";

const run = <A>(
  body: (sql: Effect.Effect.Success<ReturnType<typeof makePgliteClient>>) => Effect.Effect<A, unknown>,
) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* Effect.acquireRelease(makePgliteClient("memory://"), (client) =>
          Effect.ignore(client.close),
        );
        yield* migrateServerTables(sql);
        return yield* body(sql);
      }),
    ),
  );

describe("rate reservations shared through SQL", () => {
  it.each([
    [3, 1],
    [1_000, 10],
    [5_000, 20],
  ])(
    "with a limit of %i (batch %i), three instances together never admit more than the limit",
    async (requests, batch) => {
      await run((sql) =>
        Effect.gen(function* () {
          const limit = { requests, windowMs: 60_000 };
          const instances = [0, 1, 2].map(() => makeRateReservations(sql, limit));
          expect(instances[0]?.batch).toBe(batch);
          const now = 1_700_000_000_000;
          let admitted = 0;
          for (let index = 0; index < requests + 3 * batch + 10; index += 1) {
            const decision = yield* instances[index % 3]!.take("key-a", now);
            if (decision.allowed) admitted += 1;
          }
          expect(admitted).toBeLessThanOrEqual(requests);
          expect(admitted).toBeGreaterThanOrEqual(requests - 3 * (batch - 1));
          const other = yield* instances[0]!.take("key-b", now);
          expect(other.allowed).toBe(true);
          const nextWindow = yield* instances[1]!.take("key-a", now + 60_000);
          expect(nextWindow.allowed).toBe(true);
        }),
      );
    },
    60_000,
  );

  it("spends reserved hits without SQL (takeReserved), and asks SQL again once they run out or the window turns", async () => {
    await run((sql) =>
      Effect.gen(function* () {
        const reservations = makeRateReservations(sql, { requests: 1_000, windowMs: 60_000 });
        const now = 1_700_000_040_000;
        expect(reservations.takeReserved("key-b", now)).toBeUndefined();
        expect((yield* reservations.take("key-b", now)).allowed).toBe(true);
        // The first take reserved a batch of 10 and spent one: nine are left to spend locally.
        for (let index = 0; index < 9; index += 1)
          expect(reservations.takeReserved("key-b", now)?.allowed).toBe(true);
        expect(reservations.takeReserved("key-b", now)).toBeUndefined();
        expect((yield* reservations.take("key-b", now)).allowed).toBe(true);
        expect(reservations.takeReserved("key-b", now + 60_000)).toBeUndefined();
        const rows = yield* sql.query<{ hits: number }>(
          "SELECT hits FROM veracity_server_rate_windows WHERE key_hash = $1",
          ["key-b"],
        );
        expect(rows.map((row) => Number(row.hits))).toEqual([20]);
      }),
    );
  });

  it("refuses a key whose window is spent without asking SQL again, and asks again once the window turns", async () => {
    await run((sql) =>
      Effect.gen(function* () {
        let statements = 0;
        const counted = {
          ...sql,
          query: ((text, params) => {
            statements += 1;
            return sql.query(text, params);
          }) as typeof sql.query,
        };
        const limit = { requests: 5, windowMs: 60_000 };
        const reservations = makeRateReservations(counted, limit);
        // Another instance spends part of the same window: the count is shared.
        const elsewhere = makeRateReservations(sql, limit);
        const now = 1_700_000_100_000;
        for (let index = 0; index < 2; index += 1)
          expect((yield* elsewhere.take("key-c", now)).allowed).toBe(true);
        const decisions: boolean[] = [];
        for (let index = 0; index < 4; index += 1)
          decisions.push((yield* reservations.take("key-c", now)).allowed);
        expect(decisions).toEqual([true, true, true, false]);
        const afterSpent = statements;
        // Every later request of this window is refused here, through either path, with its retry-after.
        for (let index = 0; index < 50; index += 1) {
          const decision =
            reservations.takeReserved("key-c", now + index) ?? (yield* reservations.take("key-c", now));
          expect(decision.allowed).toBe(false);
          expect(decision.retryAfterMs).toBeGreaterThan(0);
        }
        expect((yield* reservations.take("key-c", now)).allowed).toBe(false);
        expect(statements).toBe(afterSpent);
        // Another key, and the same key in the next window, are asked of SQL as before.
        expect((yield* reservations.take("key-d", now)).allowed).toBe(true);
        expect((yield* reservations.take("key-c", now + 60_000)).allowed).toBe(true);
        expect(statements).toBe(afterSpent + 2);
      }),
    );
  });
});
