import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect, Exit, Fiber, Scope } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StorageError } from "./errors.js";
import { runMigrations } from "./migrations.js";
import { isPostgresUrl, openSqlClient } from "./open.js";
import { makePgliteClient } from "./pglite-client.js";
import type { SqlClientService } from "./sql-client.js";
import { storageBackends } from "./testing.js";

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect);

describe.each(storageBackends())("storage contract: $name", (backend) => {
  let scope: Scope.CloseableScope;
  let client: SqlClientService;

  beforeAll(async () => {
    scope = await run(Scope.make());
    client = await run(Scope.extend(backend.open(), scope));
    await run(
      client.executeScript("CREATE TABLE items (id integer PRIMARY KEY, label text, amount numeric)"),
    );
    await run(client.executeScript("CREATE TABLE counter (id integer PRIMARY KEY, n integer NOT NULL)"));
    await run(client.query("INSERT INTO counter (id, n) VALUES (1, 0)"));
  });
  afterAll(async () => {
    if (scope) await run(Scope.close(scope, Exit.void));
  });

  it("names its dialect", () => {
    expect(client.dialect).toBe(backend.name);
  });

  it("binds $1..$n parameters and returns rows", async () => {
    const rows = await run(
      client.query<{ sum: number; label: string }>("SELECT $1::int + $2::int AS sum, $3::text AS label", [
        2,
        3,
        "x'; --",
      ]),
    );
    expect(rows).toEqual([{ sum: 5, label: "x'; --" }]);
  });

  it("returns int8 and numeric as exact strings", async () => {
    const rows = await run(
      client.query<{ big: unknown; exact: unknown }>(
        "SELECT 9007199254740993::int8 AS big, 1234567890.123456789::numeric AS exact",
      ),
    );
    expect(rows[0]).toEqual({ big: "9007199254740993", exact: "1234567890.123456789" });
  });

  it("matches an array parameter with = ANY($1)", async () => {
    await run(client.query("INSERT INTO items (id, label) VALUES (100, 'a'), (101, 'b'), (102, 'c')"));
    const rows = await run(
      client.query<{ id: number }>("SELECT id FROM items WHERE label = ANY($1) ORDER BY id", [
        ["a", "c", "zz"],
      ]),
    );
    expect(rows.map((row) => row.id)).toEqual([100, 102]);
  });

  it("commits a transaction", async () => {
    const result = await run(
      client.transaction((tx) =>
        Effect.gen(function* () {
          yield* tx.query("INSERT INTO items (id, label) VALUES ($1, $2)", [1, "committed"]);
          return "done";
        }),
      ),
    );
    expect(result).toBe("done");
    const rows = await run(client.query("SELECT label FROM items WHERE id = 1"));
    expect(rows).toEqual([{ label: "committed" }]);
  });

  it("rolls back on failure and keeps the body's typed error", async () => {
    const exit = await Effect.runPromiseExit(
      client.transaction((tx) =>
        Effect.gen(function* () {
          yield* tx.query("INSERT INTO items (id, label) VALUES ($1, $2)", [2, "rolled back"]);
          return yield* Effect.fail("body failed" as const);
        }),
      ),
    );
    expect(exit).toEqual(Exit.fail("body failed"));
    expect(await run(client.query("SELECT id FROM items WHERE id = 2"))).toEqual([]);
  });

  it("rolls back when the transaction is interrupted", async () => {
    const inserted = await run(Effect.makeLatch(false));
    const fiber = Effect.runFork(
      client.transaction((tx) =>
        tx
          .query("INSERT INTO items (id, label) VALUES (3, 'interrupted')")
          .pipe(Effect.zipRight(inserted.open), Effect.zipRight(Effect.never)),
      ),
    );
    await run(inserted.await);
    await run(Fiber.interrupt(fiber));
    expect(await run(client.query("SELECT id FROM items WHERE id = 3"))).toEqual([]);
  });

  it("reports a failing statement as a StorageError", async () => {
    const exit = await Effect.runPromiseExit(client.query("SELECT * FROM no_such_table"));
    expect(Exit.isFailure(exit)).toBe(true);
    if (Exit.isFailure(exit) && exit.cause._tag === "Fail") {
      expect(exit.cause.error).toBeInstanceOf(StorageError);
      expect(exit.cause.error.operation).toBe("query");
    }
  });

  it("runs concurrent transactions without losing writes; a failing one leaves no trace", async () => {
    const attempts = Array.from({ length: 12 }, (_, index) => index);
    const exits = await run(
      Effect.all(
        attempts.map((index) =>
          Effect.exit(
            client.transaction((tx) =>
              Effect.gen(function* () {
                yield* tx.query("UPDATE counter SET n = n + 1 WHERE id = 1");
                yield* tx.query("INSERT INTO items (id, label) VALUES ($1, 'concurrent')", [1000 + index]);
                if (index % 4 === 0) return yield* Effect.fail(`abort ${index}`);
                return index;
              }),
            ),
          ),
        ),
        { concurrency: "unbounded" },
      ),
    );
    const committed = exits.filter(Exit.isSuccess).length;
    expect(committed).toBe(9);
    const [counter] = await run(client.query<{ n: number }>("SELECT n FROM counter WHERE id = 1"));
    expect(counter?.n).toBe(9);
    const rows = await run(
      client.query<{ count: string }>("SELECT count(*) AS count FROM items WHERE id >= 1000"),
    );
    expect(rows[0]?.count).toBe("9");
  });

  it("answers each of a transaction's statements sent at once with its own rows", async () => {
    const answers = await run(
      client.transaction((tx) =>
        Effect.all(
          Array.from({ length: 12 }, (_, index) =>
            index % 4 === 3
              ? tx.executeScript("SELECT 1").pipe(Effect.as([{ x: index }]))
              : tx.query<{ x: number }>("SELECT $1::int AS x", [index]),
          ),
          { concurrency: "unbounded" },
        ),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 12 }, (_, index) => [{ x: index }]));
  });

  it("applies migrations once, even when two runners race", async () => {
    const migrations = [
      { version: 2, sql: "ALTER TABLE migrated ADD COLUMN note text" },
      {
        version: 1,
        sql: "CREATE TABLE migrated (id integer PRIMARY KEY); CREATE INDEX migrated_id ON migrated (id)",
      },
    ];
    const [first, second] = await run(
      Effect.all(
        [runMigrations(client, "contract", migrations), runMigrations(client, "contract", migrations)],
        {
          concurrency: 2,
        },
      ),
    );
    expect([...(first?.applied ?? []), ...(second?.applied ?? [])].sort()).toEqual([1, 2]);
    const again = await run(runMigrations(client, "contract", migrations));
    expect(again.applied).toEqual([]);
    await run(client.query("INSERT INTO migrated (id, note) VALUES (1, 'ok')"));
  });

  it("refuses a migration edited after it was applied", async () => {
    await run(runMigrations(client, "edited", [{ version: 1, sql: "CREATE TABLE edited_a (id integer)" }]));
    const exit = await Effect.runPromiseExit(
      runMigrations(client, "edited", [{ version: 1, sql: "CREATE TABLE edited_b (id integer)" }]),
    );
    expect(Exit.isFailure(exit)).toBe(true);
  });

  it.each([
    ["a duplicate version", "dup", [1, 1]],
    ["a non-positive version", "zero", [0]],
    ["an invalid namespace", "Bad Name!", [1]],
  ])("rejects %s", async (_, namespace, versions) => {
    const exit = await Effect.runPromiseExit(
      runMigrations(
        client,
        namespace,
        versions.map((version) => ({ version, sql: "SELECT 1" })),
      ),
    );
    expect(Exit.isFailure(exit)).toBe(true);
  });
});

describe("PGlite data directory", () => {
  it("keeps data across close and reopen, and refuses a second open of the same directory", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "veracity-reopen-"));
    try {
      const first = await run(makePgliteClient(dataDir));
      await run(first.executeScript("CREATE TABLE kept (value text)"));
      await run(first.query("INSERT INTO kept (value) VALUES ($1)", ["survives"]));
      const twice = await Effect.runPromiseExit(makePgliteClient(dataDir));
      expect(Exit.isFailure(twice)).toBe(true);
      await run(first.close);
      const second = await run(openSqlClient(dataDir));
      expect(second.dialect).toBe("pglite");
      expect(await run(second.query("SELECT value FROM kept"))).toEqual([{ value: "survives" }]);
      await run(second.close);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe("target selection and secrets", () => {
  it.each([
    ["postgres://u@h/db", true],
    ["postgresql://u@h/db", true],
    ["POSTGRES://u@h/db", true],
    ["./data/evidence", false],
    ["memory://", false],
  ])("%s is a PostgreSQL URL: %s", (target, expected) => {
    expect(isPostgresUrl(target)).toBe(expected);
  });

  it("does not put the password of a failing connection string in the error", async () => {
    const exit = await Effect.runPromiseExit(
      openSqlClient("postgres://someone:hunter2@127.0.0.1:1/none", { max: 1 }),
    );
    expect(Exit.isFailure(exit)).toBe(true);
    expect(JSON.stringify(exit)).not.toContain("hunter2");
  });
});
