import { Effect } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pairedCostRatio } from "../testing/measured-cost.js";
import { makePgliteClient } from "./pglite-client.js";
import type { SqlClientService } from "./sql-client.js";

/**
 * The embedded store runs one statement at a time; hundreds of requests may send theirs at once (a flood of
 * made-up API keys was one lookup each). Those waiting must cost each a constant share, not a share that grows
 * with the queue.
 */
let sql: SqlClientService;
beforeAll(async () => {
  sql = await Effect.runPromise(makePgliteClient("memory://"));
  await Effect.runPromise(sql.executeScript("CREATE TABLE item (id integer PRIMARY KEY, label text)"));
  await Effect.runPromise(
    sql.query("INSERT INTO item SELECT n, 'item ' || n FROM generate_series(1, 1000) n"),
  );
}, 60_000);
afterAll(async () => {
  await Effect.runPromise(sql.close);
});

/** `count` one-row lookups sent at once; their answers in the order they settled. */
const atOnce = async (count: number) => {
  const settled: number[] = [];
  await Promise.all(
    Array.from({ length: count }, (_, index) =>
      Effect.runPromise(
        sql.query<{ id: number }>("SELECT id FROM item WHERE id = $1", [(index % 1000) + 1]),
      ).then((rows) => settled.push(rows[0]?.id ?? -1)),
    ),
  );
  return settled;
};

describe("the embedded store's statements sent at once", () => {
  it("are answered in the order they were sent", async () => {
    expect(await atOnce(300)).toEqual(Array.from({ length: 300 }, (_, index) => index + 1));
  });

  it("cost about twice as much for twice as many", async () => {
    // A queue that woke every waiter at each release would make n statements cost n squared: four times as
    // much for twice as many. Counted on this thread alone (PGlite runs in it), the median of seven pairs.
    expect(await pairedCostRatio(atOnce, 1_000, 2_000)).toBeLessThan(2.5);
  }, 60_000);
});
