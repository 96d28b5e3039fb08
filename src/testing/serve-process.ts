import { type ChildProcess, execFile, spawn } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { nodeArgsToRun } from "../facade/worker-pool/current-build.js";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

const cliSource = join(repoRoot, "src/cli/main.ts");

/** What a `veracity` command run to its end printed, and its exit code (null when a signal ended it). */
export interface VeracityRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * `veracity <args>` run to its end in a process of its own (the build when current, else the sources), from the
 * project's folder with this process's environment and `env` over it (an undefined value leaves a variable out).
 * A command that fails resolves with its exit code; a process that cannot start, or prints more than 64 MB, rejects.
 */
export const runVeracity = (
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): Promise<VeracityRun> =>
  new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nodeArgsToRun(cliSource), ...args],
      { cwd: repoRoot, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        // A string code is execFile's own failure (the program not found, an output past `maxBuffer`).
        if (typeof error?.code === "string") reject(error);
        else resolve({ code: error === null ? 0 : (error.code ?? null), stdout, stderr });
      },
    );
  });

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
  const child = spawn(process.execPath, [...nodeArgsToRun(cliSource), "serve", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env },
  });
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
