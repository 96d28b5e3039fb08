import { Context, type Effect } from "effect";
import type { StorageError } from "./errors.js";

/** A value that can be sent as a `$n` parameter. Arrays become PostgreSQL arrays (`= ANY($1)`). */
export type SqlParameter = string | number | boolean | null | bigint | Date | readonly SqlParameter[];

/** Runs parameterized statements in the PostgreSQL dialect; `int8` and `numeric` columns come back as strings. */
export interface SqlExecutor {
  readonly query: <Row = Record<string, unknown>>(
    sql: string,
    params?: readonly SqlParameter[],
  ) => Effect.Effect<readonly Row[], StorageError>;
  /** Runs a script of several statements without parameters (migrations, DDL). */
  readonly executeScript: (sql: string) => Effect.Effect<void, StorageError>;
}

export type SqlDialect = "pglite" | "postgres";

/**
 * The one SQL interface of Veracity. Application code depends on this tag; the driver (PGlite embedded or a
 * PostgreSQL pool) is chosen at the edge by the Layer that provides it.
 */
export interface SqlClientService extends SqlExecutor {
  readonly dialect: SqlDialect;
  /** Runs `body` between BEGIN and COMMIT on one connection; rolls back on failure or interruption. */
  readonly transaction: <A, E, R>(
    body: (tx: SqlExecutor) => Effect.Effect<A, E, R>,
  ) => Effect.Effect<A, E | StorageError, R>;
  readonly close: Effect.Effect<void, StorageError>;
}

export class SqlClient extends Context.Tag("veracity/SqlClient")<SqlClient, SqlClientService>() {}
