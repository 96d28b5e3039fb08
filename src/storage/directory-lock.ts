import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { Duration, Effect } from "effect";
import { StorageError } from "./errors.js";

/** The lock file PGlite directories carry while a process has them open. */
export const lockFileName = ".veracity-lock";

/** Written by `veracity serve` beside the lock while it holds the directory: the URL it answers on. */
export const serverUrlFileName = ".veracity-server";

/** The URL of the `veracity serve` holding a directory, when the holder is one. */
const serverUrlOf = async (directory: string, holder: string): Promise<string | undefined> => {
  const url = (await readFile(path.join(directory, serverUrlFileName), "utf8").catch(() => "")).trim();
  const pid = holder.split(" ")[1] ?? "";
  return url === "" || !url.startsWith(`${pid} `) ? undefined : url.slice(pid.length + 1);
};

/** How to reach the data of a directory a server holds, for the error a second process gets. */
const servedHint = (url: string | undefined): string =>
  url === undefined
    ? "stop that process first, or use its HTTP API if it is `veracity serve`"
    : `it is \`veracity serve\` at ${url}: use its HTTP API (e.g. GET /v1/audit/verify with an admin key), or stop it first`;

export interface DirectoryLock {
  readonly file: string;
  /** Removes the lock file if it is still ours. */
  readonly release: Effect.Effect<void>;
}

export interface DirectoryLockOptions {
  /**
   * How long to wait for another process to close the directory (default 1.5 s: long enough for a command
   * that is finishing, short enough that a long-running holder, such as a server, gets a clear error at once).
   */
  readonly waitMs?: number;
  /**
   * How long to wait, in all, when the holder is not a server but another short command (default 60 s):
   * commands that write the same store at once take turns instead of failing.
   */
  readonly commandWaitMs?: number;
  /** Pause between attempts (default 50 ms). */
  readonly retryMs?: number;
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

const errorCode = (error: unknown) => (error as NodeJS.ErrnoException).code;

type Attempt = { readonly taken: true } | { readonly taken: false; readonly holder: string };

/**
 * One try: publish the lock file whole (written aside, then hard-linked into place, which fails if the file
 * exists), or learn who holds it and remove it if its process is gone.
 */
const tryLock = async (file: string, token: string): Promise<Attempt> => {
  const staged = `${file}.${token.replace(" ", "-")}`;
  await writeFile(staged, token);
  try {
    await link(staged, file);
    return { taken: true };
  } catch (error) {
    if (errorCode(error) !== "EEXIST") throw error;
  } finally {
    await unlink(staged).catch(() => undefined);
  }
  const holder = await readFile(file, "utf8").catch((error: unknown) =>
    errorCode(error) === "ENOENT" ? "" : Promise.reject(error),
  );
  if (holder === "") return { taken: false, holder: "" };
  const pid = Number.parseInt(holder.split(" ")[0] ?? "", 10);
  // A lock left by a process that died is stale: remove it and take the directory on the next try.
  if (!Number.isSafeInteger(pid) || pid <= 0 || !isAlive(pid)) {
    await unlink(file).catch((error: unknown) =>
      errorCode(error) === "ENOENT" ? undefined : Promise.reject(error),
    );
    return { taken: false, holder: "" };
  }
  return { taken: false, holder: `process ${pid}` };
};

/**
 * Takes an exclusive, cross-process lock on a directory (a lock file created with O_EXCL and holding the
 * owner's pid). PGlite has no locking of its own: two processes on one directory each keep their own copy
 * and the last to close overwrites the other's writes. A second process therefore waits until the first
 * closes, up to `waitMs`, then fails with a StorageError naming the holder. A lock whose process is gone is
 * taken over.
 */
export const lockDirectory = (
  directory: string,
  options: DirectoryLockOptions = {},
): Effect.Effect<DirectoryLock, StorageError> =>
  Effect.gen(function* () {
    const file = path.join(directory, lockFileName);
    const token = `${process.pid} ${randomBytes(8).toString("hex")}`;
    const waitMs = options.waitMs ?? 1_500;
    const retryMs = options.retryMs ?? 50;
    const fail = (message: string) => new StorageError({ operation: "open", message });
    yield* Effect.tryPromise({
      try: () => mkdir(directory, { recursive: true }),
      catch: (error) => fail(`cannot create ${directory}: ${String(error)}`),
    });
    const started = Date.now();
    let deadline = started + waitMs;
    let extended = false;
    for (;;) {
      const attempt = yield* Effect.tryPromise({
        try: () => tryLock(file, token),
        catch: (error) => fail(`cannot lock ${directory}: ${String(error)}`),
      });
      if (attempt.taken) break;
      if (Date.now() >= deadline) {
        const url = yield* Effect.promise(() => serverUrlOf(directory, attempt.holder));
        // A server holds the store for good: say so at once. Another command will finish: take turns.
        if (url === undefined && !extended) {
          extended = true;
          deadline = started + Math.max(waitMs, options.commandWaitMs ?? 60_000);
          continue;
        }
        return yield* fail(
          `${directory} is in use by ${attempt.holder || "another process"} (waited ${Date.now() - started} ms); an embedded store allows one process at a time: ${servedHint(url)}`,
        );
      }
      yield* Effect.sleep(Duration.millis(retryMs));
    }
    const release = Effect.promise(async () => {
      const holder = await readFile(file, "utf8").catch(() => "");
      if (holder === token) await unlink(file).catch(() => undefined);
    });
    return { file, release };
  });
