import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { makePgliteClient } from "../../storage/pglite-client.js";
import {
  authenticateApiKey,
  createApiKey,
  hashApiKey,
  migrateServerTables,
  revokeApiKeys,
} from "./api-keys.js";

const withStore = <A>(
  body: (sql: Effect.Effect.Success<ReturnType<typeof makePgliteClient>>) => Effect.Effect<A, unknown>,
) =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const sql = yield* Effect.acquireRelease(makePgliteClient("memory://"), (client) =>
          Effect.ignore(client.close),
        );
        yield* migrateServerTables(sql);
        return yield* body(sql);
      }),
    ),
  );

describe("API keys", () => {
  it("stores only the SHA-256 hash, maps the key to its user, and stops working once revoked", async () => {
    await withStore((sql) =>
      Effect.gen(function* () {
        const { key } = yield* createApiKey(sql, "alice");
        expect(key).toMatch(/^vk_[A-Za-z0-9_-]{43}$/);
        const stored = yield* sql.query<{ key_hash: string; user_id: string }>(
          "SELECT key_hash, user_id FROM veracity_server_api_keys",
        );
        expect(stored).toEqual([{ key_hash: hashApiKey(key), user_id: "alice" }]);
        expect(JSON.stringify(stored)).not.toContain(key.slice(3));
        expect(yield* authenticateApiKey(sql, key)).toEqual({
          userId: "alice",
          keyHash: hashApiKey(key),
          kind: "reviewer",
        });
        expect(yield* revokeApiKeys(sql, "alice")).toBe(1);
        expect(yield* authenticateApiKey(sql, key)).toBeUndefined();
      }),
    );
  }, 60_000);

  it.each([[""], ["   "], ["x".repeat(201)]])(
    "refuses the user id %j",
    async (userId) => {
      await withStore((sql) =>
        Effect.gen(function* () {
          const outcome = yield* Effect.either(createApiKey(sql, userId));
          expect(outcome._tag).toBe("Left");
        }),
      );
    },
    60_000,
  );

  it("mints a different key every time", async () => {
    await withStore((sql) =>
      Effect.gen(function* () {
        const keys = new Set<string>();
        for (let index = 0; index < 20; index += 1) keys.add((yield* createApiKey(sql, "bob")).key);
        expect(keys.size).toBe(20);
      }),
    );
  }, 60_000);
});
