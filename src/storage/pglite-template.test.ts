import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FreshDatabaseTemplate, isFreshDataDir } from "./pglite-template.js";

const create = (dataDir: string, options: PGliteOptions) => PGlite.create(dataDir, options);

const userTables = async (database: PGlite): Promise<string[]> =>
  (
    await database.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    )
  ).rows.map((row) => row.name);

describe("FreshDatabaseTemplate", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "veracity-template-"));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("starts later new databases, in memory or in a directory, from a copy taken before anything was written, and never overwrites a cluster", async () => {
    let reclaims = 0;
    const template = new FreshDatabaseTemplate({ afterInitdb: async () => void reclaims++ });
    const databases: PGlite[] = [];
    for (let index = 0; index < 3; index++) {
      const database = await template.create(create, "memory://", {});
      // Each database writes a table of its own at once: a copy taken after this would carry it to the next.
      await database.exec(
        `CREATE TABLE written_by_${index} (value int); INSERT INTO written_by_${index} VALUES (${index})`,
      );
      databases.push(database);
    }
    expect(template.state()).toEqual({ freshCreated: 3, fromCopy: 1, holdsCopy: true, madeElsewhere: 0 });
    // initdb ran for the first two (the second is the copy's source), not for the one loaded from the copy.
    expect(reclaims).toBe(2);
    for (const [index, database] of databases.entries()) {
      expect(await userTables(database)).toEqual([`written_by_${index}`]);
      expect((await database.query<{ value: number }>(`SELECT value FROM written_by_${index}`)).rows).toEqual(
        [{ value: index }],
      );
    }
    await Promise.all(databases.map((database) => database.close()));

    const directory = path.join(root, "from-copy");
    expect(isFreshDataDir(directory)).toBe(true);
    const first = await template.create(create, directory, {});
    expect(template.state().fromCopy).toBe(2);
    expect(await userTables(first)).toEqual([]);
    await first.exec("CREATE TABLE kept (value text); INSERT INTO kept VALUES ('still here')");
    await first.close();
    expect(existsSync(path.join(directory, "PG_VERSION"))).toBe(true);
    expect(isFreshDataDir(directory)).toBe(false);

    // The directory now holds a cluster: it is opened as it is, not started again from the copy.
    const reopened = await template.create(create, directory, {});
    expect(template.state()).toMatchObject({ freshCreated: 4, fromCopy: 2 });
    // Neither a database from the copy nor a cluster opened as it is ran initdb.
    expect(reclaims).toBe(2);
    expect((await reopened.query<{ value: string }>("SELECT value FROM kept")).rows).toEqual([
      { value: "still here" },
    ]);
    await reopened.close();
  }, 60_000);

  it("carries no file a directory held before its cluster into another database", async () => {
    let reclaims = 0;
    const template = new FreshDatabaseTemplate({ afterInitdb: async () => void reclaims++ });
    const directories = ["first", "second", "third"].map((name) => path.join(root, `held-${name}`));
    const made: PGlite[] = [];
    for (const [index, directory] of directories.entries()) {
      // A file of someone else's in the directory before the cluster is made (a lock file, an operator's note).
      await mkdir(directory, { recursive: true });
      if (index < 2) await writeFile(path.join(directory, `note-${index}.txt`), `private ${index}`);
      made.push(await template.create(create, directory, {}));
    }
    await Promise.all(made.map((database) => database.close()));
    const notes = async (directory: string) =>
      (await readdir(directory)).filter((name) => name.startsWith("note-")).sort();
    expect(await notes(directories[0] as string)).toEqual(["note-0.txt"]);
    expect(await notes(directories[1] as string)).toEqual(["note-1.txt"]);
    expect(await notes(directories[2] as string)).toEqual([]);
    for (const directory of directories) expect(isFreshDataDir(directory)).toBe(false);
    // The first directory's cluster was made by another process (`makeClusterInChildProcess`); initdb ran here
    // only for the throwaway in-memory database the copy was dumped from.
    expect(template.state()).toEqual({ freshCreated: 3, fromCopy: 2, holdsCopy: true, madeElsewhere: 1 });
    expect(reclaims).toBe(1);
  }, 60_000);

  it("drops the copy once no new database has been created for the idle time", async () => {
    // What is timed here is the template's own bookkeeping, not PGlite: the databases are stand-ins that dump
    // a small copy (the two tests above run the real thing, about 2 s of initdb per cluster).
    const standIn = async () =>
      ({ dumpDataDir: async () => new Blob(["cluster"]), close: async () => {} }) as unknown as PGlite;
    let reclaims = 0;
    const template = new FreshDatabaseTemplate({ idleMs: 50, afterInitdb: async () => void reclaims++ });
    for (let index = 0; index < 2; index++) await template.create(standIn, "memory://", {});
    expect(reclaims).toBe(2);
    expect(template.state()).toEqual({ freshCreated: 2, fromCopy: 0, holdsCopy: true, madeElsewhere: 0 });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(template.state().holdsCopy).toBe(false);
    // A new database after the drop makes the copy again rather than loading one that is gone.
    await template.create(standIn, "memory://", {});
    expect(template.state()).toEqual({ freshCreated: 3, fromCopy: 0, holdsCopy: true, madeElsewhere: 0 });
    expect(reclaims).toBe(3);
  });
});
