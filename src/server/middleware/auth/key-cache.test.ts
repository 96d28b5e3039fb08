import { describe, expect, it } from "vitest";
import { makeKeyCache } from "./key-cache.js";

const found = (keyHash: string) => ({ keyHash, userId: `user-${keyHash}`, kind: "reviewer" as const });

describe("key cache", () => {
  it("reuses a lookup until its time is up", () => {
    const cache = makeKeyCache({ ttlMs: 1_000, maxEntries: 10 });
    cache.set(found("a"), 0);
    expect(cache.get("a", 999)).toEqual(found("a"));
    expect(cache.get("a", 1_000)).toBeUndefined();
  });

  it("holds at most maxEntries, dropping the oldest", () => {
    const cache = makeKeyCache({ ttlMs: 1_000, maxEntries: 2 });
    for (const hash of ["a", "b", "c"]) cache.set(found(hash), 0);
    expect(cache.get("a", 1)).toBeUndefined();
    expect(cache.get("c", 1)).toEqual(found("c"));
  });

  it("caches nothing with a zero time to live", () => {
    const cache = makeKeyCache({ ttlMs: 0, maxEntries: 2 });
    cache.set(found("a"), 0);
    expect(cache.get("a", 0)).toBeUndefined();
  });
});
