import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Effect, Exit } from "effect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDirectory, lockFileName, serverUrlFileName } from "./directory-lock.js";

describe("lockDirectory", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "veracity-lock-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("writes the owner's pid and removes the file on release", async () => {
    const directory = path.join(root, "plain");
    const lock = await Effect.runPromise(lockDirectory(directory));
    expect((await readFile(lock.file, "utf8")).split(" ")[0]).toBe(String(process.pid));
    await Effect.runPromise(lock.release);
    await expect(readFile(lock.file, "utf8")).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("refuses a directory a live process holds, naming it, once the wait is over", async () => {
    const directory = path.join(root, "held");
    const first = await Effect.runPromise(lockDirectory(directory));
    const started = Date.now();
    const second = await Effect.runPromiseExit(
      lockDirectory(directory, { waitMs: 100, commandWaitMs: 300, retryMs: 10 }),
    );
    // Not a server: it waited its turn for the longer command wait before giving up.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(Exit.isFailure(second)).toBe(true);
    expect(JSON.stringify(second)).toContain(`in use by process ${process.pid}`);
    await Effect.runPromise(first.release);
    const third = await Effect.runPromise(lockDirectory(directory, { waitMs: 100, retryMs: 10 }));
    await Effect.runPromise(third.release);
  });

  it("takes over a lock left by a process that died", async () => {
    const directory = path.join(root, "stale");
    const dead = spawnSync(process.execPath, ["-e", "process.exit(0)"]).pid;
    await Effect.runPromise(Effect.flatMap(lockDirectory(directory), (lock) => lock.release));
    await writeFile(path.join(directory, lockFileName), `${dead} 0123456789abcdef`);
    const lock = await Effect.runPromise(lockDirectory(directory, { waitMs: 1_000, retryMs: 10 }));
    expect((await readFile(lock.file, "utf8")).split(" ")[0]).toBe(String(process.pid));
    await Effect.runPromise(lock.release);
  });

  it("does not remove a lock that another owner took after it", async () => {
    const directory = path.join(root, "handed-over");
    const lock = await Effect.runPromise(lockDirectory(directory));
    await writeFile(lock.file, `${process.pid} someone-else`);
    await Effect.runPromise(lock.release);
    expect(await readFile(lock.file, "utf8")).toBe(`${process.pid} someone-else`);
  });
});

describe("a directory held by a running server", () => {
  it("fails within 2 s by default, naming the server's URL to use instead", async () => {
    const directory = await mkdtemp(path.join(tmpdir(), "veracity-held-"));
    try {
      // This test's own process stands for the server: alive, holding the lock, serving at a URL.
      await writeFile(path.join(directory, lockFileName), `${process.pid} 00aa`);
      await writeFile(path.join(directory, serverUrlFileName), `${process.pid} http://127.0.0.1:8123\n`);
      const started = Date.now();
      const exit = await Effect.runPromiseExit(lockDirectory(directory));
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(Exit.isFailure(exit)).toBe(true);
      expect(String(exit)).toMatch(/veracity serve` at http:\/\/127\.0\.0\.1:8123/);
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
