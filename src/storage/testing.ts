import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect, type Scope } from "effect";
import pg from "pg";
import { type StorageError, toStorageError } from "./errors.js";
import { makePgliteClient } from "./pglite-client.js";
import { makePostgresClient } from "./postgres-client.js";
import type { SqlClientService } from "./sql-client.js";

export const defaultTestPostgresUrl = "postgres://postgres@127.0.0.1:5432/test";

/** The PostgreSQL used by tests: `VERACITY_TEST_PG_URL`, or the local trust-auth server. */
export const testPostgresUrl = (): string => process.env.VERACITY_TEST_PG_URL ?? defaultTestPostgresUrl;

/** One backend of the storage contract: `open` gives an empty, private database, removed when the scope closes. */
export interface StorageBackend {
  readonly name: "pglite" | "postgres";
  readonly open: () => Effect.Effect<SqlClientService, StorageError, Scope.Scope>;
}

const openPgliteInTempDir = (): Effect.Effect<SqlClientService, StorageError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: () => mkdtemp(path.join(tmpdir(), "veracity-pglite-")),
      catch: toStorageError("open"),
    }),
    (dataDir) => Effect.promise(() => rm(dataDir, { recursive: true, force: true })),
  ).pipe(
    Effect.flatMap((dataDir) =>
      Effect.acquireRelease(makePgliteClient(dataDir), (client) => Effect.ignore(client.close)),
    ),
  );

const withAdminConnection = <A>(url: string, work: (client: pg.Client) => Promise<A>) =>
  Effect.tryPromise({
    try: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return await work(client);
      } finally {
        await client.end();
      }
    },
    catch: toStorageError("open"),
  });

const openPostgresInFreshSchema = (url: string): Effect.Effect<SqlClientService, StorageError, Scope.Scope> =>
  Effect.gen(function* () {
    const schema = `veracity_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
    yield* Effect.acquireRelease(
      withAdminConnection(url, (client) => client.query(`CREATE SCHEMA ${schema}`)),
      () =>
        Effect.ignore(withAdminConnection(url, (client) => client.query(`DROP SCHEMA ${schema} CASCADE`))),
    );
    return yield* Effect.acquireRelease(makePostgresClient(url, { schema, max: 4 }), (client) =>
      Effect.ignore(client.close),
    );
  });

/**
 * The backends every storage suite runs against: PGlite in a temporary directory and PostgreSQL in a fresh,
 * uniquely named schema. Set `VERACITY_TEST_PG_URL=skip` to leave PostgreSQL out.
 */
export const storageBackends = (): readonly StorageBackend[] => {
  const url = testPostgresUrl();
  const pglite: StorageBackend = { name: "pglite", open: openPgliteInTempDir };
  if (url === "skip") return [pglite];
  return [pglite, { name: "postgres", open: () => openPostgresInFreshSchema(url) }];
};
