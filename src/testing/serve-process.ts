import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeArgsToRun } from "../facade/worker-pool/current-build.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** A `veracity serve` started by `spawnServe`. */
export interface ServeProcess {
  readonly child: ChildProcess;
  /** The address it listens on, once it says so; rejects, with what it printed, if it exits first. */
  readonly url: Promise<string>;
  /** Its exit code, once it has exited. */
  readonly exited: Promise<number | null>;
  /** What it has printed to stderr so far. */
  readonly output: () => string;
}

/**
 * `veracity serve <args>` in a process of its own, run from the project's folder (where the TypeScript loader
 * resolves when the build is older than the sources) with this process's environment. For tests: the caller
 * stops it (SIGTERM, or SIGKILL when a test fails half-way).
 */
export const spawnServe = (args: readonly string[]): ServeProcess => {
  const child = spawn(
    process.execPath,
    [...nodeArgsToRun(join(repoRoot, "src/cli/main.ts")), "serve", ...args],
    {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env },
    },
  );
  let output = "";
  const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
  const url = new Promise<string>((resolve, reject) => {
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before listening:\n${output}`)));
  });
  return { child, url, exited, output: () => output };
};
