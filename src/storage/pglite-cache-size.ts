import { type Dirent, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { directoryKey, isFreshDataDir } from "./pglite-template.js";

/**
 * The page cache (PostgreSQL's `shared_buffers`) an embedded database is opened with. PGlite's own default is
 * 128 MB, and PGlite's WebAssembly build touches all of it when it starts: a process that opens a store of a
 * few megabytes holds about 100 MB more than the store could ever fill (a `veracity serve` restarted on a small
 * store held 555-585 MB after its warm-up, and 454-466 MB with this file's sizing). A cache smaller than the store costs
 * reads, though: at 50,000 memories (150 MB of tables and indexes) the first 200 duplicate checks after opening,
 * with no warm-up, took p99 17-26 ms with 37 MB against 12-23 ms with 128 MB.
 *
 * So the cache holds the whole store when it can: the size of the data directory's tables and indexes when it
 * is opened, between `minCacheMb` and `maxCacheMb` (PGlite's default). No store gets less cache than PGlite
 * gave it, unless it outgrows the cache while it is open; it gets the room it needs when it is next opened.
 */
export const minCacheMb = 16;
export const maxCacheMb = 128;

/**
 * The largest cache a caller may ask for (`cacheMb`): PGlite's WebAssembly memory is at most 2 GB, and the cache
 * must leave room for the rest of PostgreSQL.
 */
export const maxCacheMbAccepted = 1024;

const megabyte = 1024 * 1024;

/** The cache for a store whose tables and indexes take `bytes`: all of them, within the bounds, in MB. */
export const cacheMbForStoreBytes = (bytes: number): number =>
  Math.min(maxCacheMb, Math.max(minCacheMb, Math.ceil(bytes / megabyte)));

/**
 * The bytes of the files under `directory`, its subdirectories included (Node's recursive `readdirSync`); a
 * missing directory holds nothing. Read synchronously: a cluster holds a thousand files or so, and one `stat`
 * after another through the thread pool took 80-95 ms where this takes a few. The store is sized before it
 * opens, under its directory's lock; a file that vanishes meanwhile all the same counts as nothing.
 */
export const bytesUnder = (directory: string): number => {
  let entries: Dirent[];
  try {
    entries = readdirSync(directory, { recursive: true, withFileTypes: true });
  } catch {
    return 0;
  }
  let total = 0;
  for (const entry of entries)
    if (entry.isFile())
      total += statSync(path.join(entry.parentPath, entry.name), { throwIfNoEntry: false })?.size ?? 0;
  return total;
};

/**
 * The cache to open `dataDir` with. Only `base/` and `global/` count: they hold the tables and indexes the
 * cache holds pages of, where `pg_wal/` holds the write-ahead log, which the cache never reads.
 */
export const defaultCacheMb = (dataDir: string): number => {
  const directory = directoryKey(dataDir);
  if (directory === undefined || isFreshDataDir(dataDir)) return minCacheMb;
  const bytes = bytesUnder(path.join(directory, "base")) + bytesUnder(path.join(directory, "global"));
  return cacheMbForStoreBytes(bytes);
};
