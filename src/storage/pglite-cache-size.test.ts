import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect, Exit } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StorageError } from "./errors.js";
import {
  bytesUnder,
  cacheMbForStoreBytes,
  defaultCacheMb,
  maxCacheMb,
  minCacheMb,
} from "./pglite-cache-size.js";
import { makePgliteClient } from "./pglite-client.js";
import type { SqlClientService } from "./sql-client.js";

const megabytes = (n: number) => n * 1024 * 1024;

/** A file of `bytes` that takes no disk space (sparse): only its size is read. */
const fileOf = async (file: string, bytes: number) => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, "");
  await truncate(file, bytes);
};

const cacheOf = async (client: SqlClientService) =>
  (await Effect.runPromise(client.query<{ shared_buffers: string }>("SHOW shared_buffers")))[0]
    ?.shared_buffers;

describe("the embedded database's cache follows the store", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "veracity-cache-size-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("holds the whole store's tables and indexes, within its bounds, and never shrinks as the store grows", () => {
    expect(cacheMbForStoreBytes(0)).toBe(minCacheMb);
    expect(cacheMbForStoreBytes(megabytes(minCacheMb))).toBe(minCacheMb);
    expect(cacheMbForStoreBytes(megabytes(40))).toBe(40);
    expect(cacheMbForStoreBytes(megabytes(40) + 1)).toBe(41);
    expect(cacheMbForStoreBytes(megabytes(maxCacheMb))).toBe(maxCacheMb);
    expect(cacheMbForStoreBytes(megabytes(maxCacheMb) + 1)).toBe(maxCacheMb);
    expect(cacheMbForStoreBytes(megabytes(40_000))).toBe(maxCacheMb);
    let previous = 0;
    for (let mb = 0; mb <= 1_000; mb += 7) {
      const cache = cacheMbForStoreBytes(megabytes(mb));
      expect(cache).toBeGreaterThanOrEqual(previous);
      previous = cache;
    }
  });

  it("adds up the files of a directory and its subdirectories; a missing directory holds nothing", async () => {
    const directory = path.join(root, "sizes");
    await fileOf(path.join(directory, "a"), 1_000);
    await fileOf(path.join(directory, "nested", "b"), 2_500);
    await fileOf(path.join(directory, "nested", "deeper", "c"), 40);
    expect(bytesUnder(directory)).toBe(3_540);
    expect(bytesUnder(path.join(root, "no-such-directory"))).toBe(0);
  });

  it("counts a cluster's tables and indexes, not its write-ahead log; a new or in-memory store gets the least", async () => {
    expect(defaultCacheMb("memory://")).toBe(minCacheMb);
    expect(defaultCacheMb(path.join(root, "not-yet-created"))).toBe(minCacheMb);

    const cluster = path.join(root, "cluster");
    await fileOf(path.join(cluster, "PG_VERSION"), 3);
    await fileOf(path.join(cluster, "base", "5", "16384"), megabytes(30));
    await fileOf(path.join(cluster, "base", "5", "16390"), megabytes(10));
    await fileOf(path.join(cluster, "global", "1262"), megabytes(2));
    await fileOf(path.join(cluster, "pg_wal", "000000010000000000000001"), megabytes(16));
    expect(defaultCacheMb(cluster)).toBe(42);
    expect(defaultCacheMb(`file://${cluster}`)).toBe(42);

    // The same directory with no cluster in it yet (no PG_VERSION): initdb would make a new one.
    await rm(path.join(cluster, "PG_VERSION"));
    expect(defaultCacheMb(cluster)).toBe(minCacheMb);
  });

  it("opens an in-memory store with the least cache, or with the size asked for", async () => {
    const least = await Effect.runPromise(makePgliteClient("memory://"));
    try {
      expect(await cacheOf(least)).toBe(`${minCacheMb}MB`);
    } finally {
      await Effect.runPromise(least.close);
    }
    const asked = await Effect.runPromise(makePgliteClient("memory://", { cacheMb: 24 }));
    try {
      expect(await cacheOf(asked)).toBe("24MB");
    } finally {
      await Effect.runPromise(asked.close);
    }
  });

  it("refuses a cache that is not a whole number of megabytes within bounds, with a typed error", async () => {
    for (const cacheMb of [0, -8, 1.5, Number.NaN, 4096]) {
      const exit = await Effect.runPromiseExit(makePgliteClient("memory://", { cacheMb }));
      expect(Exit.isFailure(exit)).toBe(true);
      if (Exit.isFailure(exit)) {
        const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined;
        expect(failure).toBeInstanceOf(StorageError);
        expect((failure as StorageError).operation).toBe("open");
        expect((failure as StorageError).message).toContain("cacheMb");
      }
    }
  });

  it("never writes the cache size into a directory store's configuration: each opening decides it anew", async () => {
    const dataDir = path.join(root, "store");
    const first = await Effect.runPromise(makePgliteClient(dataDir, { cacheMb: 20 }));
    expect(await cacheOf(first)).toBe("20MB");
    await Effect.runPromise(first.close);
    const configuration = await readFile(path.join(dataDir, "postgresql.conf"), "utf8");
    expect(configuration).not.toMatch(/^\s*shared_buffers\s*=\s*20MB/m);

    // Opened again with no size asked for: the store's own (a bare cluster's tables, 22-23 MB), not 20.
    const ownSize = defaultCacheMb(dataDir);
    expect(ownSize).not.toBe(20);
    const second = await Effect.runPromise(makePgliteClient(dataDir));
    try {
      expect(await cacheOf(second)).toBe(`${ownSize}MB`);
    } finally {
      await Effect.runPromise(second.close);
    }
    expect(await readFile(path.join(dataDir, "postgresql.conf"), "utf8")).toBe(configuration);
  });
});
