import { createServer } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { StorageError } from "../../storage/errors.js";
import type { SqlClientService } from "../../storage/sql-client.js";
import { storageBackends } from "../../storage/testing.js";
import {
  createApiKey,
  generateApiKey,
  hashApiKey,
  makeKeyLookups,
  migrateServerTables,
  revokeApiKeys,
} from "./api-keys.js";

/** The store, with every statement counted; `failNext` makes the next statement fail as an outage would. */
const counted = (sql: SqlClientService) => {
  const state = { statements: 0, failNext: false };
  const client: SqlClientService = {
    ...sql,
    query: (text, params) =>
      Effect.suspend(() => {
        state.statements += 1;
        if (state.failNext) {
          state.failNext = false;
          return Effect.fail(new StorageError({ operation: "query", message: "the database went away" }));
        }
        return sql.query(text, params);
      }),
  };
  return { client, state };
};

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe.each(storageBackends())("makeKeyLookups on $name", (backend) => {
  const withStore = (body: (sql: SqlClientService) => Promise<void>) =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const sql = yield* backend.open();
          yield* migrateServerTables(sql);
          yield* Effect.promise(() => body(sql));
        }),
      ),
    );

  it("answers the keys presented in one turn with one statement, each with its own holder", async () => {
    await withStore(async (sql) => {
      const alice = await Effect.runPromise(createApiKey(sql, "alice", "", "reviewer"));
      const robot = await Effect.runPromise(createApiKey(sql, "alice", "", "agent"));
      const bob = await Effect.runPromise(createApiKey(sql, "bob", "", "admin"));
      const gone = await Effect.runPromise(createApiKey(sql, "carol"));
      await Effect.runPromise(revokeApiKeys(sql, "carol"));
      const { client, state } = counted(sql);
      const lookUp = makeKeyLookups(client);
      const unknown = Array.from({ length: 100 }, () => generateApiKey());
      const presented = [alice.key, robot.key, bob.key, gone.key, ...unknown, alice.key, "not-a-key"];
      const answers = await Promise.all(presented.map((key) => lookUp(key)));
      expect(state.statements).toBe(1);
      expect(answers.slice(0, 3)).toEqual([
        { userId: "alice", keyHash: hashApiKey(alice.key), kind: "reviewer" },
        { userId: "alice", keyHash: hashApiKey(robot.key), kind: "agent" },
        { userId: "bob", keyHash: hashApiKey(bob.key), kind: "admin" },
      ]);
      // Revoked, unknown and malformed keys have no holder; a key presented twice gets its holder twice.
      expect(answers[3]).toBeUndefined();
      expect(answers.slice(4, 104).every((answer) => answer === undefined)).toBe(true);
      expect(answers[104]).toEqual(answers[0]);
      expect(answers[105]).toBeUndefined();
    });
  }, 60_000);

  it("splits a long turn over statements of at most 500 keys and answers every key", async () => {
    await withStore(async (sql) => {
      const minted = await Effect.runPromise(createApiKey(sql, "dave"));
      const { client, state } = counted(sql);
      const lookUp = makeKeyLookups(client);
      const presented = Array.from({ length: 1_201 }, () => generateApiKey());
      presented[1_100] = minted.key;
      const answers = await Promise.all(presented.map((key) => lookUp(key)));
      expect(state.statements).toBe(3);
      expect(answers.filter((answer) => answer !== undefined)).toEqual([
        { userId: "dave", keyHash: hashApiKey(minted.key), kind: "reviewer" },
      ]);
      expect(answers[1_100]?.userId).toBe("dave");
    });
  }, 60_000);

  it("remembers no unknown key: one made after a refusal works on the next turn", async () => {
    await withStore(async (sql) => {
      const { client, state } = counted(sql);
      const lookUp = makeKeyLookups(client);
      const minted = await Effect.runPromise(createApiKey(sql, "erin"));
      await Effect.runPromise(revokeApiKeys(sql, "erin"));
      expect(await lookUp(minted.key)).toBeUndefined();
      await nextTurn();
      // Another instance mints a key; this one has never seen it.
      const later = await Effect.runPromise(createApiKey(sql, "erin"));
      expect((await lookUp(later.key))?.userId).toBe("erin");
      expect(state.statements).toBe(2);
    });
  }, 60_000);

  it("fails every lookup of a turn whose statement fails, and looks up afresh on the next", async () => {
    await withStore(async (sql) => {
      const minted = await Effect.runPromise(createApiKey(sql, "frank"));
      const { client, state } = counted(sql);
      const lookUp = makeKeyLookups(client);
      state.failNext = true;
      const outcomes = await Promise.allSettled([lookUp(minted.key), lookUp(generateApiKey())]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(["rejected", "rejected"]);
      expect((await lookUp(minted.key))?.userId).toBe("frank");
    });
  }, 60_000);

  it("looks up together the keys of requests read in the same turn, each request its own callback", async () => {
    await withStore(async (sql) => {
      const minted = await Effect.runPromise(createApiKey(sql, "grace"));
      const { client, state } = counted(sql);
      const lookUp = makeKeyLookups(client);
      // A plain HTTP server whose handler looks up the request's key at once, as the auth middleware does.
      const server = createServer((incoming, outgoing) => {
        void lookUp(String(incoming.headers.authorization)).then((found) => {
          outgoing.statusCode = found === undefined ? 401 : 200;
          outgoing.end();
        });
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      const sockets: Socket[] = [];
      try {
        for (let index = 0; index < 40; index += 1) {
          const socket = connect(port, "127.0.0.1");
          sockets.push(socket);
          await new Promise((resolve) => socket.once("connect", resolve));
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
        const statuses = sockets.map(
          (socket) =>
            new Promise<number>((resolve) =>
              socket.once("data", (chunk) => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(String(chunk))?.[1]))),
            ),
        );
        // Every request written before the server reads any: it reads them in one turn (or a few), each in a
        // callback of its own, with its own continuations run between them.
        for (const [index, socket] of sockets.entries())
          socket.write(
            `GET / HTTP/1.1\r\nhost: x\r\nauthorization: ${index === 7 ? minted.key : generateApiKey()}\r\n\r\n`,
          );
        const answers = await Promise.all(statuses);
        expect(answers.filter((status) => status === 200)).toHaveLength(1);
        expect(answers[7]).toBe(200);
        expect(answers.filter((status) => status === 401)).toHaveLength(39);
        expect(state.statements).toBeLessThanOrEqual(4);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => server.close(resolve));
      }
    });
  }, 60_000);
});
