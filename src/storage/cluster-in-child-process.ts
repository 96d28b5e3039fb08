import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** How long the child may take before it is stopped and the cluster is made in this process instead. */
const defaultTimeoutMs = 120_000;

/**
 * Node's arguments to run make-cluster as a program. From the TypeScript sources (tests) the source through tsx;
 * from the build the compiled file beside this one, or, in the bundled command (this code sits in dist/cli, see
 * scripts/bundle-cli.mjs), the one in dist/storage.
 */
const makeClusterProgram = (): string[] => {
  if (import.meta.url.endsWith(".ts"))
    return ["--import", "tsx", fileURLToPath(new URL("./make-cluster.ts", import.meta.url))];
  const beside = new URL("./make-cluster.js", import.meta.url);
  return [
    fileURLToPath(
      existsSync(fileURLToPath(beside)) ? beside : new URL("../storage/make-cluster.js", import.meta.url),
    ),
  ];
};

/**
 * Whether `process.execPath` runs a script as Node does. In Electron it starts the application instead (unless
 * ELECTRON_RUN_AS_NODE is set), and Bun and Deno take other arguments: there the cluster is made in the process.
 */
const startsNodePrograms = (): boolean =>
  process.release?.name === "node" &&
  (process.versions as Record<string, string | undefined>).bun === undefined &&
  (process.versions as Record<string, string | undefined>).deno === undefined &&
  ((process.versions as Record<string, string | undefined>).electron === undefined ||
    process.env.ELECTRON_RUN_AS_NODE !== undefined);

export interface ClusterInChildOptions {
  /** Node's arguments for the program (default: make-cluster's); the staging directory is added last. */
  readonly program?: readonly string[];
  readonly timeoutMs?: number;
  /** Moves one of the cluster's entries up (default: `rename`). */
  readonly move?: (from: string, to: string) => Promise<void>;
}

/** Runs the program on `staging`; resolves with whether it exited 0 in time. */
const runChild = (program: readonly string[], staging: string, timeoutMs: number): Promise<boolean> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [...program, staging], { stdio: "ignore" });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.once("error", () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });

/**
 * Creates a new PGlite cluster in `directory` (which exists and holds none) in a child process, and says
 * whether it did. Run in the process that then opens the store, initdb leaves it holding memory it never gives
 * back: a store on a new directory, opened, measured 442 MB resident and a high-water mark of 844-883 MB, against
 * 309-326 MB and 322-339 MB when the process opened a directory initialised before (docs/BENCHMARKS.md, stop 48).
 *
 * The child works in a staging directory inside `directory` (the same file system, and the one place this
 * process may surely write), and the cluster's files are moved up once it has exited 0, `PG_VERSION` last: that
 * file is what marks a directory as initialised, so a cluster cut short by a crash is never taken for one. A
 * failure of any kind (no child, a non-zero exit, the time limit, a name already taken in `directory`) removes
 * what this did and returns false, and the caller makes the cluster in its own process as before.
 */
export const makeClusterInChildProcess = async (
  directory: string,
  options: ClusterInChildOptions = {},
): Promise<boolean> => {
  if (!startsNodePrograms()) return false;
  const staging = path.join(
    directory,
    `.veracity-new-cluster-${process.pid}-${randomBytes(4).toString("hex")}`,
  );
  const moved: string[] = [];
  try {
    const made = await runChild(
      options.program ?? makeClusterProgram(),
      staging,
      options.timeoutMs ?? defaultTimeoutMs,
    );
    if (!made || !existsSync(path.join(staging, "PG_VERSION"))) return false;
    const entries = (await readdir(staging)).sort(
      (a, b) => Number(a === "PG_VERSION") - Number(b === "PG_VERSION"),
    );
    // A name the directory already holds would be overwritten (a file) or refuse the move (a directory).
    if (entries.some((entry) => existsSync(path.join(directory, entry)))) return false;
    for (const entry of entries) {
      await (options.move ?? rename)(path.join(staging, entry), path.join(directory, entry));
      moved.push(entry);
    }
    return true;
  } catch {
    // What was moved up is this cluster's, and incomplete without the rest: taken back out.
    for (const entry of moved) await rm(path.join(directory, entry), { recursive: true, force: true });
    moved.length = 0;
    return false;
  } finally {
    await rm(staging, { recursive: true, force: true }).catch(() => undefined);
  }
};
