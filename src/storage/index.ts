export { redactSecrets, StorageError } from "./errors.js";
export { type Migration, type MigrationOutcome, runMigrations } from "./migrations.js";
export { isPostgresUrl, openSqlClient, SqlClientLayer, type SqlClientOptions } from "./open.js";
export { makePgliteClient, PgliteClientLayer, type PgliteClientOptions } from "./pglite-client.js";
export { makePostgresClient, PostgresClientLayer, type PostgresClientOptions } from "./postgres-client.js";
export {
  SqlClient,
  type SqlClientService,
  type SqlDialect,
  type SqlExecutor,
  type SqlParameter,
} from "./sql-client.js";
