import { PGlite, protocol, types } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oneTripQuery, parameterText } from "./pglite-one-trip-query.js";
import type { SqlParameter } from "./sql-client.js";

const wire = { serialize: protocol.serialize, parseType: types.parseType };

describe("parameterText", () => {
  it("writes scalars as PostgreSQL reads them and arrays as literals with every element quoted", () => {
    expect([null, undefined, "x", 12, -0.5, 10n, true, false].map(parameterText)).toEqual([
      null,
      null,
      "x",
      "12",
      "-0.5",
      "10",
      "true",
      "false",
    ]);
    expect(parameterText(new Date(Date.UTC(2026, 10, 27, 9, 30)))).toBe("2026-11-27T09:30:00.000Z");
    expect(parameterText(['a"b', "c\\d", null, "NULL", "", ["{x}", "y,z"]])).toBe(
      '{"a\\"b","c\\\\d",NULL,"NULL","",{"{x}","y,z"}}',
    );
    expect(parameterText([])).toBe("{}");
  });
});

describe("oneTripQuery", () => {
  let database: PGlite;
  const oneTrip = <Row>(sql: string, params: readonly SqlParameter[] = []) =>
    oneTripQuery<Row>(database, wire, sql, params);
  const pgliteQuery = async (sql: string, params: readonly SqlParameter[] = []) =>
    (await database.query(sql, params as unknown[])).rows;

  beforeAll(async () => {
    // As the client opens its databases: int8 and numeric kept as strings.
    database = await PGlite.create({
      parsers: { [types.INT8]: (value: string) => value, [types.NUMERIC]: (value: string) => value },
    });
    await database.exec(`
      CREATE TABLE kinds (
        big bigint, small integer, real_number double precision, exact numeric, label text, flag boolean,
        at timestamptz, document jsonb, labels text[], bigs bigint[], reals double precision[]
      );
      INSERT INTO kinds VALUES
        (9007199254740993, -7, 0.1, 12345678901234567890.5, 'quote " and \\ backslash', true,
         '2026-11-27 09:30:00.123+00', '{"a": [1, "two", null]}', ARRAY['NULL', NULL, '{x}', 'y,z', ''],
         ARRAY[1, 9007199254740993], ARRAY[0.5, NULL, -2]),
        (NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
    `);
  });
  afterAll(async () => {
    await database?.close();
  });

  it("reads every column kind the stores use as PGlite's own query reads it, nulls included", async () => {
    const sql = "SELECT * FROM kinds ORDER BY big NULLS LAST";
    const rows = await oneTrip(sql);
    expect(rows).toEqual(await pgliteQuery(sql));
    expect(rows[0]).toMatchObject({ big: "9007199254740993", labels: ["NULL", null, "{x}", "y,z", ""] });
  });

  it("passes each kind of parameter so that PostgreSQL reads the value PGlite's own query passes", async () => {
    const params: SqlParameter[] = [
      'quote " and \\ backslash, {braces}, commas',
      "",
      -7,
      0.1,
      9007199254740993n,
      true,
      new Date(Date.UTC(2026, 10, 27, 9, 30, 0, 123)),
      ["NULL", null, "{x}", 'a"b', "c\\d", ""],
      [1, 2, 3],
      [0.5, null, -2],
    ];
    const sql = `SELECT $1::text AS a, $2::text AS b, $3::integer AS c, $4::double precision AS d, $5::bigint AS e,
      $6::boolean AS f, $7::timestamptz AS g, $8::text[] AS h, $9::bigint[] AS i, $10::double precision[] AS j`;
    const rows = await oneTrip(sql, params);
    expect(rows).toEqual(await pgliteQuery(sql, params));
    expect(rows[0]).toMatchObject({ a: params[0], e: "9007199254740993", h: params[7] });
  });

  it("infers the parameters' types from the statement, as PostgreSQL does for a client that names none", async () => {
    await oneTrip("INSERT INTO kinds (big, labels, at) VALUES ($1, $2, $3)", [41, ["x", null], new Date(0)]);
    expect(await oneTrip("SELECT big, labels, at FROM kinds WHERE big = $1", [41])).toEqual([
      { big: "41", labels: ["x", null], at: new Date(0) },
    ]);
  });

  it("rejects a failing statement with PostgreSQL's message and leaves the database ready for the next", async () => {
    await expect(oneTrip("SELECT 1 / $1::integer AS x", [0])).rejects.toThrow(/division by zero/);
    await expect(oneTrip("SELECT * FROM no_such_table")).rejects.toThrow(/no_such_table/);
    expect(await oneTrip("SELECT $1::integer + 1 AS x", [1])).toEqual([{ x: 2 }]);
    await oneTrip("BEGIN");
    await expect(oneTrip("SELECT 1 / 0")).rejects.toThrow(/division by zero/);
    await expect(oneTrip("SELECT 1")).rejects.toThrow(/aborted/);
    await oneTrip("ROLLBACK");
    expect(await oneTrip("SELECT 1 AS x")).toEqual([{ x: 1 }]);
  });
});
