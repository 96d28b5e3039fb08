import { Effect, Exit, Scope } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlClientService } from "../../storage/sql-client.js";
import { storageBackends } from "../../storage/testing.js";
import { makeSourceStore, sourceHash } from "./source-store.js";

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect);
const pause = () => new Promise((resolve) => setTimeout(resolve, 5));

describe.each(storageBackends())("source store: $name", (backend) => {
  let scope: Scope.CloseableScope;
  let client: SqlClientService;
  beforeAll(async () => {
    scope = await run(Scope.make());
    client = await run(Scope.extend(backend.open(), scope));
  });
  afterAll(async () => {
    if (scope) await run(Scope.close(scope, Exit.void));
  });

  it("names a source by the SHA-256 of its text and finds it for its user only", async () => {
    const store = await run(makeSourceStore(client));
    const text = "Revenue rose from $4.2 million to $5.0 million. Ünïcödé too.";
    expect(await run(store.put("u1", text))).toEqual({ hash: sourceHash(text), chars: text.length });
    expect(sourceHash(text)).toMatch(/^[0-9a-f]{64}$/);
    expect((await run(store.get("u1", [sourceHash(text)]))).get(sourceHash(text))).toBe(text);
    expect((await run(store.get("u2", [sourceHash(text)]))).size).toBe(0);
    // Another process (no cached copy) reads it from the database.
    const fresh = await run(makeSourceStore(client));
    expect((await run(fresh.get("u1", [sourceHash(text)]))).get(sourceHash(text))).toBe(text);
  });

  it("counts the hashes asked for and those this process answered from memory", async () => {
    const store = await run(
      makeSourceStore(client, { sourcesPerUser: 100, charsPerUser: 1_000_000, cachedChars: 30 }),
    );
    const [a, b] = ["a".repeat(20), "b".repeat(20)];
    await run(store.put("counter", a)); // in memory
    await run(store.get("counter", [sourceHash(a), sourceHash(a)])); // asked once: a hit
    await run(store.put("counter", b)); // a is evicted: 40 characters do not fit in 30
    await run(store.get("counter", [sourceHash(a), sourceHash("never stored")])); // read from the database
    expect(store.cacheStats()).toEqual({
      cache: "server.stored-sources",
      lookups: 3,
      hits: 1,
      bypassed: 0,
      evictions: 2,
      entries: 1,
      characters: 20,
      maxCharacters: 30,
    });
  });

  it("keeps a user's most recently used sources within a count and a size", async () => {
    const byCount = await run(
      makeSourceStore(client, { sourcesPerUser: 3, charsPerUser: 1_000_000, cachedChars: 0 }),
    );
    const texts = ["one", "two", "three", "four"].map((word) => `source ${word} of the count test`);
    for (const text of texts.slice(0, 3)) {
      await run(byCount.put("count-user", text));
      await pause();
    }
    // Using the first makes the second the least recently used.
    await run(byCount.get("count-user", [sourceHash(texts[0] as string)]));
    await pause();
    await run(byCount.put("count-user", texts[3] as string));
    const kept = await run(byCount.get("count-user", texts.map(sourceHash)));
    expect([...kept.values()].sort()).toEqual([texts[0], texts[2], texts[3]].sort());

    const bySize = await run(
      makeSourceStore(client, { sourcesPerUser: 100, charsPerUser: 25, cachedChars: 0 }),
    );
    await run(bySize.put("size-user", "a".repeat(10)));
    await pause();
    await run(bySize.put("size-user", "b".repeat(10)));
    await pause();
    await run(bySize.put("size-user", "c".repeat(10)));
    const left = await run(
      bySize.get(
        "size-user",
        ["a", "b", "c"].map((letter) => sourceHash(letter.repeat(10))),
      ),
    );
    expect([...left.values()].sort()).toEqual(["b".repeat(10), "c".repeat(10)]);
  });

  it("stores the same text from concurrent requests once", async () => {
    const store = await run(makeSourceStore(client));
    const text = "a source uploaded by eight requests at once";
    const answers = await Promise.all(Array.from({ length: 8 }, () => run(store.put("race-user", text))));
    expect(new Set(answers.map((answer) => answer.hash)).size).toBe(1);
    const [row] = await run(
      client.query<{ n: number | string }>(
        "SELECT count(*) AS n FROM veracity_sources WHERE user_id = 'race-user'",
      ),
    );
    expect(Number(row?.n)).toBe(1);
  });
});
