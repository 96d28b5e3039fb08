import type { PGlite } from "@electric-sql/pglite";
import { Effect, Exit, Layer } from "effect";
import { makeFifoSemaphore } from "../model/fifo-semaphore.js";
import { lockDirectory } from "./directory-lock.js";
import { StorageError, toStorageError } from "./errors.js";
import { defaultCacheMb, maxCacheMbAccepted } from "./pglite-cache-size.js";
import { oneTripQuery, type PgliteWire } from "./pglite-one-trip-query.js";
import { directoryKey, FreshDatabaseTemplate } from "./pglite-template.js";
import { SqlClient, type SqlClientService, type SqlExecutor, type SqlParameter } from "./sql-client.js";

/** The process's copy of an initialised cluster, which later new databases start from. */
const freshDatabases = new FreshDatabaseTemplate();

/** How an embedded database is opened. */
export interface PgliteClientOptions {
  /**
   * PostgreSQL's page cache (`shared_buffers`), in whole megabytes. By default the size of the store's tables
   * and indexes when it is opened, between 16 and 128 MB (PGlite's own default is 128 MB, held from the start
   * whatever the store holds).
   */
  readonly cacheMb?: number;
}

/**
 * Creates the database. PGlite (its WebAssembly build included) is imported here, on the first open, so that a
 * program importing Veracity without a store never loads it. `int8` and `numeric` stay strings, as
 * node-postgres returns them: no silent loss of precision. The cache size is passed on the command line
 * PGlite starts PostgreSQL with, after PGlite's own settings, so it is never written to the store's
 * configuration file.
 */
const createDatabase = async (
  dataDir: string,
  cacheMb: number,
): Promise<{ database: PGlite; wire: PgliteWire }> => {
  const { PGlite, types, protocol } = await import("@electric-sql/pglite");
  const exactNumberParsers = {
    [types.INT8]: (value: string) => value,
    [types.NUMERIC]: (value: string) => value,
  };
  const database = await freshDatabases.create((target, options) => PGlite.create(target, options), dataDir, {
    parsers: exactNumberParsers,
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${cacheMb}MB`],
  });
  return { database, wire: { serialize: protocol.serialize, parseType: types.parseType } };
};

/**
 * Data directories open in this process. PGlite keeps one embedded database per directory; two instances on
 * the same files would corrupt them, so a second open is refused until the first is closed.
 */
const openDirectories = new Set<string>();

/**
 * The statements of one database, one after another. The client's semaphore already runs one statement or
 * transaction at a time, but a transaction's own statements are the body's to order, and a one-trip query keeps
 * its replies in the database object until it has read them: two in flight at once would read each other's.
 * `PGlite.query` and `exec` queue on a lock of PGlite's own; the one-trip queries queue here, with the scripts.
 */
const inTurn = () => {
  let last: Promise<unknown> = Promise.resolve();
  return <A>(run: () => Promise<A>): Promise<A> => {
    const next = last.then(run, run);
    last = next.catch(() => undefined);
    return next;
  };
};

const executorOf = (database: PGlite, wire: PgliteWire): SqlExecutor => {
  const queued = inTurn();
  return {
    query: <Row>(sql: string, params: readonly SqlParameter[] = []) =>
      Effect.tryPromise({
        try: () => queued(() => oneTripQuery<Row>(database, wire, sql, params)),
        catch: toStorageError("query"),
      }),
    executeScript: (sql: string) =>
      Effect.tryPromise({
        try: () => queued(() => database.exec(sql)),
        catch: toStorageError("query"),
      }).pipe(Effect.asVoid),
  };
};

/**
 * Opens an embedded PGlite database: a directory on disk, or `memory://` for a throwaway one. PGlite has
 * one connection, so statements and transactions of this process are serialized by a semaphore. A directory
 * is also locked against other processes (PGlite would let each keep its own copy and lose writes): a second
 * process waits for the first to close, up to a minute (`lockDirectory`'s default).
 */
export const makePgliteClient = (
  dataDir: string,
  options: PgliteClientOptions = {},
): Effect.Effect<SqlClientService, StorageError> =>
  Effect.gen(function* () {
    const { cacheMb } = options;
    if (
      cacheMb !== undefined &&
      !(Number.isInteger(cacheMb) && cacheMb >= 1 && cacheMb <= maxCacheMbAccepted)
    )
      return yield* new StorageError({
        operation: "open",
        message: `cacheMb must be a whole number of megabytes from 1 to ${maxCacheMbAccepted}, got ${cacheMb}`,
      });
    const key = directoryKey(dataDir);
    if (key !== undefined && openDirectories.has(key))
      return yield* new StorageError({
        operation: "open",
        message: `${key} is already open in this process`,
      });
    if (key !== undefined) openDirectories.add(key);
    const forget = Effect.sync(() => key !== undefined && openDirectories.delete(key));
    const unlock =
      key === undefined
        ? Effect.void
        : (yield* lockDirectory(key).pipe(Effect.tapError(() => forget))).release;
    const { database, wire } = yield* Effect.tryPromise({
      try: () => createDatabase(dataDir, cacheMb ?? defaultCacheMb(dataDir)),
      catch: toStorageError("open"),
    }).pipe(Effect.tapError(() => Effect.andThen(unlock, forget)));
    // In the order they came: hundreds of requests may wait on the one connection at once.
    const exclusive = makeFifoSemaphore(1);
    const executor = executorOf(database, wire);
    const statement = (sql: string) => executor.query(sql).pipe(Effect.asVoid);

    const transaction: SqlClientService["transaction"] = (body) =>
      exclusive.withPermit(
        Effect.acquireUseRelease(
          statement("BEGIN").pipe(Effect.mapError(toStorageError("transaction"))),
          () => Effect.flatMap(body(executor), (value) => Effect.as(statement("COMMIT"), value)),
          (_, exit) => (Exit.isSuccess(exit) ? Effect.void : Effect.ignore(statement("ROLLBACK"))),
        ),
      );

    return {
      dialect: "pglite",
      query: (sql, params) => exclusive.withPermit(executor.query(sql, params)),
      executeScript: (sql) => exclusive.withPermit(executor.executeScript(sql)),
      transaction,
      close: Effect.tryPromise({
        try: () => (database.closed ? Promise.resolve() : database.close()),
        catch: toStorageError("close"),
      }).pipe(Effect.ensuring(Effect.andThen(unlock, forget))),
    } satisfies SqlClientService;
  });

/** Provides `SqlClient` backed by PGlite, closed when the Layer's scope ends. */
export const PgliteClientLayer = (
  dataDir: string,
  options: PgliteClientOptions = {},
): Layer.Layer<SqlClient, StorageError> =>
  Layer.scoped(
    SqlClient,
    Effect.acquireRelease(makePgliteClient(dataDir, options), (client) => Effect.ignore(client.close)),
  );
