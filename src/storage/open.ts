import { Effect, Layer } from "effect";
import type { StorageError } from "./errors.js";
import { makePgliteClient, type PgliteClientOptions } from "./pglite-client.js";
import { makePostgresClient, type PostgresClientOptions } from "./postgres-client.js";
import { SqlClient, type SqlClientService } from "./sql-client.js";

/** True for `postgres://` and `postgresql://` URLs; anything else is a PGlite directory or `memory://`. */
export const isPostgresUrl = (target: string): boolean => /^postgres(?:ql)?:\/\//i.test(target);

/** How a store is opened: the options of the kind the target names apply, the others are ignored. */
export type SqlClientOptions = PostgresClientOptions & PgliteClientOptions;

/** Opens the store a user named: a PostgreSQL URL gets a pool, anything else an embedded PGlite database. */
export const openSqlClient = (
  target: string,
  options: SqlClientOptions = {},
): Effect.Effect<SqlClientService, StorageError> =>
  isPostgresUrl(target) ? makePostgresClient(target, options) : makePgliteClient(target, options);

/** Provides `SqlClient` for a target chosen at the edge (CLI flag, server config). */
export const SqlClientLayer = (
  target: string,
  options: SqlClientOptions = {},
): Layer.Layer<SqlClient, StorageError> =>
  Layer.scoped(
    SqlClient,
    Effect.acquireRelease(openSqlClient(target, options), (client) => Effect.ignore(client.close)),
  );
