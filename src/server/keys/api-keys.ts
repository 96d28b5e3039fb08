import { createHash, randomBytes } from "node:crypto";
import { Effect } from "effect";
import type { Principal } from "../../memory/tiers/principal-source.js";
import type { StorageError } from "../../storage/errors.js";
import { runMigrations } from "../../storage/migrations.js";
import type { SqlClientService } from "../../storage/sql-client.js";
import type { Role } from "../roles.js";
import { runEffect } from "../run-effect.js";
import { serverMigrationNamespace, serverMigrations } from "./migrations.js";

/** Prefix of every key Veracity mints: easy to recognise in a secret scanner. */
export const apiKeyPrefix = "vk_";
const maxUserIdLength = 200;
const maxKeyLength = 200;

/** Whether `key` could be one this server minted; another is refused without a lookup. */
const wellFormed = (key: string): boolean => key.startsWith(apiKeyPrefix) && key.length <= maxKeyLength;

/** SHA-256 of the key, hex: the only form in which a key is stored. */
export const hashApiKey = (key: string): string => createHash("sha256").update(key).digest("hex");

/** 32 random bytes (256 bits), base64url: too much entropy for a fast hash to be brute-forced. */
export const generateApiKey = (): string => `${apiKeyPrefix}${randomBytes(32).toString("base64url")}`;

export const migrateServerTables = (sql: SqlClientService): Effect.Effect<void, StorageError> =>
  runMigrations(sql, serverMigrationNamespace, serverMigrations).pipe(Effect.asVoid);

/**
 * A key's role (see roles.ts). `reviewer` and `admin`: a person's own key (the review queue and UI, trusted
 * sources). `agent`: a key the person hands to an agent; it acts for the same user, its memories get an
 * agent's trust whatever source they name, and it cannot review.
 */
export type ApiKeyKind = Role;

/** The role a stored kind grants. Keys minted before roles existed were "user" keys: a person's, a reviewer. */
const roleOfKind = (kind: string): Role =>
  kind === "admin" ? "admin" : kind === "reviewer" || kind === "user" ? "reviewer" : "agent";

export interface MintedKey {
  readonly key: string;
  readonly userId: string;
  readonly kind: ApiKeyKind;
}

/** Mints a key for `userId`; the plain key is returned once and never stored. */
export const createApiKey = (
  sql: SqlClientService,
  userId: string,
  label = "",
  kind: ApiKeyKind = "reviewer",
): Effect.Effect<MintedKey, StorageError | Error> =>
  Effect.gen(function* () {
    const trimmed = userId.trim();
    if (trimmed.length === 0 || trimmed.length > maxUserIdLength)
      return yield* Effect.fail(new Error(`the user id must have 1 to ${maxUserIdLength} characters`));
    const key = generateApiKey();
    yield* sql.query(
      "INSERT INTO veracity_server_api_keys (key_hash, user_id, label, kind) VALUES ($1, $2, $3, $4)",
      [hashApiKey(key), trimmed, label.slice(0, 200), kind],
    );
    return { key, userId: trimmed, kind };
  });

/** Revokes every key of a user; returns how many were revoked. */
export const revokeApiKeys = (sql: SqlClientService, userId: string): Effect.Effect<number, StorageError> =>
  sql
    .query(
      "UPDATE veracity_server_api_keys SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING key_hash",
      [userId],
    )
    .pipe(Effect.map((rows) => rows.length));

export interface AuthenticatedKey {
  readonly userId: string;
  readonly keyHash: string;
  readonly kind: ApiKeyKind;
}

/** The user a presented key belongs to, or undefined for an unknown, revoked or malformed key. */
export const authenticateApiKey = (
  sql: SqlClientService,
  key: string,
): Effect.Effect<AuthenticatedKey | undefined, StorageError> => {
  if (!wellFormed(key)) return Effect.succeed(undefined);
  const keyHash = hashApiKey(key);
  return findApiKeys(sql, [keyHash]).pipe(Effect.map((found) => found.get(keyHash)));
};

/** Stored keys, by hash, of those among `keyHashes` that exist and are not revoked: one statement. */
export const findApiKeys = (
  sql: SqlClientService,
  keyHashes: readonly string[],
): Effect.Effect<ReadonlyMap<string, AuthenticatedKey>, StorageError> =>
  sql
    .query<{ key_hash: string; user_id: string; kind: string }>(
      "SELECT key_hash, user_id, kind FROM veracity_server_api_keys WHERE key_hash = ANY($1::text[]) AND revoked_at IS NULL",
      [keyHashes],
    )
    .pipe(
      Effect.map(
        (rows) =>
          new Map(
            rows.map((row) => [
              row.key_hash,
              // Anything but an explicit person's kind is treated as an agent's (fail closed).
              { userId: row.user_id, keyHash: row.key_hash, kind: roleOfKind(row.kind) },
            ]),
          ),
      ),
    );

/** Most key hashes one lookup statement asks for; more in one turn are split over several statements. */
const maxHashesPerLookup = 500;

interface WaitingLookup {
  readonly resolve: (found: AuthenticatedKey | undefined) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * `authenticateApiKey` for a busy server: the keys presented during one turn of the event loop are looked up
 * together, in one statement, once the turn's requests have been read. Each statement costs the embedded
 * database far more than the rows it reads, so a flood of requests with made-up keys (each a lookup, since an
 * unknown key is never remembered: a key made on another instance must work at once) no longer makes the
 * server's thread run a statement per request. A lookup that fails rejects every request waiting on it (no
 * request is let in on an error). The waiting lookups are bounded by the requests in flight.
 */
export const makeKeyLookups = (sql: SqlClientService) => {
  let waiting = new Map<string, WaitingLookup[]>();
  const lookUp = async (
    batch: ReadonlyMap<string, readonly WaitingLookup[]>,
    keyHashes: readonly string[],
  ) => {
    try {
      const found = await runEffect(findApiKeys(sql, keyHashes));
      for (const keyHash of keyHashes)
        for (const each of batch.get(keyHash) ?? []) each.resolve(found.get(keyHash));
    } catch (error) {
      for (const keyHash of keyHashes) for (const each of batch.get(keyHash) ?? []) each.reject(error);
    }
  };
  const flush = () => {
    const batch = waiting;
    waiting = new Map();
    const keyHashes = [...batch.keys()];
    for (let start = 0; start < keyHashes.length; start += maxHashesPerLookup)
      void lookUp(batch, keyHashes.slice(start, start + maxHashesPerLookup));
  };
  /** The key's holder, or undefined for an unknown, revoked or malformed key. */
  return (key: string): Promise<AuthenticatedKey | undefined> => {
    if (!wellFormed(key)) return Promise.resolve(undefined);
    const keyHash = hashApiKey(key);
    return new Promise((resolve, reject) => {
      // After this turn's other requests have been read: setImmediate runs once the turn's input is handled.
      if (waiting.size === 0) setImmediate(flush);
      const same = waiting.get(keyHash);
      if (same === undefined) waiting.set(keyHash, [{ resolve, reject }]);
      else same.push({ resolve, reject });
    });
  };
};

/**
 * The key's holder for surfaces other than the HTTP API (MCP over HTTP): its user, and whether it is the
 * person's own key or one handed to an agent (whose memories get an agent's trust). Undefined for an unknown,
 * revoked or malformed key.
 */
export const keyHolder = (sql: SqlClientService) => {
  const lookUp = makeKeyLookups(sql);
  return async (
    key: string,
  ): Promise<{ readonly userId: string; readonly principal: Principal } | undefined> => {
    const found = await lookUp(key);
    if (found === undefined) return undefined;
    return { userId: found.userId, principal: found.kind === "agent" ? "agent" : "person" };
  };
};
