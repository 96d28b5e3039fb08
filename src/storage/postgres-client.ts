import { Effect, Exit, Layer } from "effect";
import type pg from "pg";
import { type StorageError, toStorageError } from "./errors.js";
import { SqlClient, type SqlClientService, type SqlExecutor, type SqlParameter } from "./sql-client.js";

export interface PostgresClientOptions {
  /** Pool size; 10 by default. */
  readonly max?: number;
  /** Schema to put first on the `search_path` of every connection (tests use a fresh one each). */
  readonly schema?: string;
}

const schemaName = /^[a-z_][a-z0-9_]{0,62}$/;

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

const executorOf = (connection: Queryable): SqlExecutor => ({
  query: <Row>(sql: string, params: readonly SqlParameter[] = []) =>
    Effect.tryPromise({
      try: () => connection.query(sql, params as unknown[]),
      catch: toStorageError("query"),
    }).pipe(Effect.map((result) => result.rows as Row[])),
  // Without parameters node-postgres uses the simple protocol, which accepts several statements.
  executeScript: (sql: string) =>
    Effect.tryPromise({ try: () => connection.query(sql), catch: toStorageError("query") }).pipe(
      Effect.asVoid,
    ),
});

/** A PostgreSQL pool (node-postgres). `int8` and `numeric` come back as strings. */
export const makePostgresClient = (
  connectionString: string,
  options: PostgresClientOptions = {},
): Effect.Effect<SqlClientService, StorageError> =>
  Effect.gen(function* () {
    if (options.schema !== undefined && !schemaName.test(options.schema)) {
      return yield* Effect.fail(toStorageError("open")(`invalid schema name: ${options.schema}`));
    }
    // node-postgres is imported on the first connection, so that programs without PostgreSQL never load it.
    const { default: driver } = yield* Effect.tryPromise({
      try: () => import("pg"),
      catch: toStorageError("open"),
    });
    const pool = new driver.Pool({
      connectionString,
      max: options.max ?? 10,
      // Idle connections do not keep a CLI process alive once its work is done.
      allowExitOnIdle: true,
      ...(options.schema === undefined ? {} : { options: `-c search_path=${options.schema}` }),
    });
    // An idle client that loses its connection emits on the pool; the next query reports the failure.
    pool.on("error", () => undefined);
    // Fail fast on a wrong address or credentials instead of at the first query.
    yield* Effect.tryPromise({ try: () => pool.query("SELECT 1"), catch: toStorageError("open") }).pipe(
      Effect.tapError(() => Effect.promise(() => pool.end().catch(() => undefined))),
    );
    let closed = false;

    const transaction: SqlClientService["transaction"] = (body) =>
      Effect.acquireUseRelease(
        Effect.tryPromise({ try: () => pool.connect(), catch: toStorageError("transaction") }).pipe(
          Effect.tap((connection) =>
            Effect.tryPromise({
              try: () => connection.query("BEGIN"),
              catch: toStorageError("transaction"),
            }).pipe(Effect.tapError(() => Effect.sync(() => connection.release(true)))),
          ),
        ),
        (connection) => {
          const executor = executorOf(connection);
          return Effect.flatMap(body(executor), (value) =>
            Effect.as(executor.query("COMMIT").pipe(Effect.mapError(toStorageError("transaction"))), value),
          );
        },
        (connection, exit) =>
          Exit.isSuccess(exit)
            ? Effect.sync(() => connection.release())
            : Effect.promise(() =>
                connection.query("ROLLBACK").then(
                  () => connection.release(),
                  (error: Error) => connection.release(error),
                ),
              ),
      );

    return {
      dialect: "postgres",
      ...executorOf(pool),
      transaction,
      close: Effect.suspend(() => {
        if (closed) return Effect.void;
        closed = true;
        return Effect.tryPromise({ try: () => pool.end(), catch: toStorageError("close") });
      }),
    } satisfies SqlClientService;
  });

/** Provides `SqlClient` backed by a PostgreSQL pool, ended when the Layer's scope ends. */
export const PostgresClientLayer = (
  connectionString: string,
  options: PostgresClientOptions = {},
): Layer.Layer<SqlClient, StorageError> =>
  Layer.scoped(
    SqlClient,
    Effect.acquireRelease(makePostgresClient(connectionString, options), (client) =>
      Effect.ignore(client.close),
    ),
  );
