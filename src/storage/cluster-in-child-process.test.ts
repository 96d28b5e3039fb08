import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeClusterInChildProcess } from "./cluster-in-child-process.js";

/** A stand-in program: Node evaluating `code`, the staging directory in `process.argv[1]`. */
const program = (code: string) => ["-e", code];
/** Writes `files` into the staging directory and exits 0: a cluster as far as the move can tell. */
const writes = (files: readonly string[]) =>
  program(
    `const fs = require("node:fs"); fs.mkdirSync(process.argv[1], { recursive: true }); for (const name of ${JSON.stringify(files)}) fs.writeFileSync(process.argv[1] + "/" + name, name);`,
  );

describe("makeClusterInChildProcess", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "veracity-cluster-child-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A new directory holding one file of someone else's (a lock file, say), as a store's directory does. */
  const newDirectory = async (name: string) => {
    const directory = path.join(root, name);
    await mkdir(directory, { recursive: true });
    await writeFile(path.join(directory, ".held"), "someone else's");
    return directory;
  };

  it("makes a real cluster another process, which this one then opens as initialised", async () => {
    const directory = await newDirectory("real");
    expect(await makeClusterInChildProcess(directory)).toBe(true);
    expect(existsSync(path.join(directory, "PG_VERSION"))).toBe(true);
    expect(await readFile(path.join(directory, ".held"), "utf8")).toBe("someone else's");
    // The staging directory is gone: the cluster's own files and the file held before, nothing else.
    expect((await readdir(directory)).filter((name) => name.startsWith(".veracity-new-cluster-"))).toEqual(
      [],
    );
    const database = await PGlite.create(directory);
    try {
      await database.exec("CREATE TABLE t (value int); INSERT INTO t VALUES (7)");
      expect((await database.query<{ value: number }>("SELECT value FROM t")).rows).toEqual([{ value: 7 }]);
    } finally {
      await database.close();
    }
  }, 120_000);

  it("moves what the program made up, PG_VERSION among it, and leaves nothing else", async () => {
    const directory = await newDirectory("moved");
    expect(
      await makeClusterInChildProcess(directory, { program: writes(["base", "global", "PG_VERSION"]) }),
    ).toBe(true);
    expect((await readdir(directory)).sort()).toEqual([".held", "PG_VERSION", "base", "global"]);
  });

  it("moves PG_VERSION last, so a process killed half-way leaves no directory that looks initialised", async () => {
    const directory = await newDirectory("order");
    const moved: string[] = [];
    const move = async (from: string, to: string) => {
      moved.push(path.basename(to));
      await rename(from, to);
    };
    const files = ["PG_VERSION", "base", "global", "pg_wal", "postgresql.conf"];
    expect(await makeClusterInChildProcess(directory, { program: writes(files), move })).toBe(true);
    expect(moved).toHaveLength(files.length);
    expect(moved.at(-1)).toBe("PG_VERSION");
  });

  it("takes back what it moved when a move fails, and returns false", async () => {
    const directory = await newDirectory("half-moved");
    let moves = 0;
    const move = async (from: string, to: string) => {
      moves += 1;
      if (moves === 3) throw new Error("the disk is full");
      await rename(from, to);
    };
    const files = ["base", "global", "pg_wal", "PG_VERSION"];
    expect(await makeClusterInChildProcess(directory, { program: writes(files), move })).toBe(false);
    expect(await readdir(directory)).toEqual([".held"]);
  });

  it.each([
    ["exits with an error", program("process.exit(1)")],
    ["writes files but no PG_VERSION (cut short)", writes(["base", "global"])],
    ["outlives its time limit", program("setTimeout(() => {}, 120000)")],
  ])("returns false and leaves the directory as it was when the program %s", async (_name, given) => {
    const directory = await newDirectory(`failed-${_name.split(" ")[0]}`);
    expect(await makeClusterInChildProcess(directory, { program: given, timeoutMs: 1_000 })).toBe(false);
    expect(await readdir(directory)).toEqual([".held"]);
  });

  it("leaves the cluster to this process in a runtime whose executable does not run Node programs (Electron)", async () => {
    const directory = await newDirectory("electron");
    const versions = process.versions as Record<string, string | undefined>;
    versions.electron = "33.0.0";
    try {
      // A program that would succeed: only the runtime stops it.
      expect(await makeClusterInChildProcess(directory, { program: writes(["base", "PG_VERSION"]) })).toBe(
        false,
      );
    } finally {
      delete versions.electron;
    }
    expect(await readdir(directory)).toEqual([".held"]);
  });

  it("returns false, overwriting nothing, when the directory already holds a name the cluster has", async () => {
    const directory = await newDirectory("taken");
    await writeFile(path.join(directory, "base"), "an operator's file");
    expect(await makeClusterInChildProcess(directory, { program: writes(["base", "PG_VERSION"]) })).toBe(
      false,
    );
    expect((await readdir(directory)).sort()).toEqual([".held", "base"]);
    expect(await readFile(path.join(directory, "base"), "utf8")).toBe("an operator's file");
  });
});
