import { existsSync } from "node:fs";
import path from "node:path";
import type { PGlite, PGliteOptions } from "@electric-sql/pglite";
import { makeClusterInChildProcess } from "./cluster-in-child-process.js";
import { reclaimWebAssemblyMemory } from "./reclaim-webassembly-memory.js";

/**
 * A new PGlite database starts with initdb run inside PGlite's WebAssembly: about 2 s each on a 2-core machine,
 * even in a process that made one before. Loading an initialised data directory from a tarball instead takes
 * about a quarter of that (PGlite's own `clone()` does the same). A process that creates several new databases
 * (throwaway `memory://` stores, a directory per tenant or per test) keeps a copy of a bare cluster when it
 * asks for its second new database, and starts that one and the later ones from the copy. The copy comes from
 * an in-memory database, dumped before anything is written to it: the second new database itself when it is in
 * memory, else one made for the purpose.
 *
 * The first new database of a process costs nothing extra: a command-line run or a server with one store
 * never makes the copy. The copy (about 40 MB, held outside the JavaScript heap) is dropped once no new
 * database has been created for `idleMs`, so a long-lived process does not keep it.
 */
export interface FreshDatabaseTemplateOptions {
  /** How long the copy is kept after the last new database that used or made it. */
  readonly idleMs?: number;
  /**
   * Run once initdb has made a new database (and once a throwaway database the copy came from is closed):
   * frees the WebAssembly memory that work leaves behind (default: `reclaimWebAssemblyMemory`).
   */
  readonly afterInitdb?: () => Promise<void>;
  /**
   * Makes a new directory's cluster outside this process and says whether it did (default:
   * `makeClusterInChildProcess`); when it did not, initdb runs here as before. Not asked for in-memory
   * databases, whose files live in this process.
   */
  readonly makeCluster?: (directory: string) => Promise<boolean>;
}

/** What a template has done so far: for tests and diagnostics. */
export interface FreshDatabaseTemplateState {
  /** New databases created through this template, whether by initdb or from the copy. */
  readonly freshCreated: number;
  /** Of those, how many started from the copy. */
  readonly fromCopy: number;
  /** Whether the copy is held now. */
  readonly holdsCopy: boolean;
  /** Of those, how many directories got their cluster from `makeCluster` (another process). */
  readonly madeElsewhere: number;
}

type CreateDatabase = (dataDir: string, options: PGliteOptions) => Promise<PGlite>;

/** The directory a PGlite target names, resolved (`file://` or a path), or undefined for `memory://`. */
export const directoryKey = (dataDir: string): string | undefined =>
  dataDir.startsWith("memory://") ? undefined : path.resolve(dataDir.replace(/^file:\/\//, ""));

/** True when PGlite would run initdb for `dataDir`: in memory, or a directory without a cluster in it. */
export const isFreshDataDir = (dataDir: string): boolean => {
  const directory = directoryKey(dataDir);
  return directory === undefined || !existsSync(path.join(directory, "PG_VERSION"));
};

export class FreshDatabaseTemplate {
  readonly #idleMs: number;
  readonly #afterInitdb: () => Promise<void>;
  readonly #makeCluster: (directory: string) => Promise<boolean>;
  #copy: Blob | undefined;
  #making = false;
  #freshCreated = 0;
  #fromCopy = 0;
  #madeElsewhere = 0;
  #dropTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: FreshDatabaseTemplateOptions = {}) {
    this.#idleMs = options.idleMs ?? 60_000;
    this.#afterInitdb = options.afterInitdb ?? reclaimWebAssemblyMemory;
    this.#makeCluster = options.makeCluster ?? makeClusterInChildProcess;
  }

  /**
   * Creates the database with `create`, starting a new one from the copy when there is one. A directory that
   * already holds a cluster is opened as it is: the copy never overwrites data.
   */
  async create(create: CreateDatabase, dataDir: string, options: PGliteOptions): Promise<PGlite> {
    if (!isFreshDataDir(dataDir)) return create(dataDir, options);
    this.#freshCreated++;
    if (this.#copy === undefined && this.#freshCreated >= 2 && !this.#making) {
      this.#making = true;
      try {
        // An in-memory database's file system holds the cluster and nothing else, so the copy is always
        // dumped from one, before anything is written to it. A directory may hold other files from before
        // its cluster (the lock file of the process that opened it, an operator's notes): those must not
        // travel to other databases.
        if (dataDir.startsWith("memory://")) {
          const database = await create(dataDir, options);
          await this.#keep(database);
          await this.#afterInitdb();
          return database;
        }
        const source = await create("memory://", options);
        try {
          await this.#keep(source);
        } finally {
          await source.close();
        }
        await this.#afterInitdb();
      } finally {
        this.#making = false;
      }
    }
    const copy = this.#copy;
    if (copy === undefined) {
      // A directory's cluster made by another process: this one then opens it as initialised before, and never
      // holds what initdb leaves behind (`makeClusterInChildProcess`).
      const directory = directoryKey(dataDir);
      if (directory !== undefined && (await this.#makeCluster(directory))) {
        this.#madeElsewhere++;
        return create(dataDir, options);
      }
      const database = await create(dataDir, options);
      await this.#afterInitdb();
      return database;
    }
    this.#keepAlive();
    const database = await create(dataDir, { ...options, loadDataDir: copy });
    this.#fromCopy++;
    return database;
  }

  /** Dumps a new in-memory database as the copy; without one, every new database runs initdb as before. */
  async #keep(database: PGlite): Promise<void> {
    try {
      this.#copy = await database.dumpDataDir("none");
      this.#keepAlive();
    } catch {
      this.#copy = undefined;
    }
  }

  state(): FreshDatabaseTemplateState {
    return {
      freshCreated: this.#freshCreated,
      fromCopy: this.#fromCopy,
      holdsCopy: this.#copy !== undefined,
      madeElsewhere: this.#madeElsewhere,
    };
  }

  #keepAlive(): void {
    if (this.#dropTimer !== undefined) clearTimeout(this.#dropTimer);
    this.#dropTimer = setTimeout(() => {
      this.#copy = undefined;
      this.#dropTimer = undefined;
    }, this.#idleMs);
    this.#dropTimer.unref();
  }
}
