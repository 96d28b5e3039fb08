import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureServer, startFixtureServer } from "../src/datasets/testing/fixture-server.js";
import { freePort } from "../src/testing/free-port.js";

/**
 * Every command of the README's `sh` blocks, run from a fresh copy of the repository (its tracked and
 * untracked, not ignored files) with `veracity` on the PATH, one block after another in the same copy.
 *
 * What differs from a user's machine, and why:
 * - `npm install` is not re-run: the copy links this checkout's installed node_modules and built dist
 *   (CI has no network), and `npx veracity` runs the same built bin from the PATH (npx would look the name
 *   up in the registry first); `npm test` is not run: it is the suite this test belongs to.
 * - `veracity datasets ...` downloads from a local HTTP server that serves fixture copies of the upstream
 *   files (`VERACITY_DATASETS_MIRROR`), into a cache inside the copy (`VERACITY_CACHE_DIR`).
 * - servers (`veracity serve --port N`, `veracity mcp`) are started, must still be running after they report
 *   ready (or after a few seconds), and are stopped; `--port 8080` becomes a free port.
 * - `<id>` stands for the first id (UUID) an earlier command of the same block printed.
 *
 * A command passes when it exits 0 or 1 (1 is "findings": a flagged answer, a missed quality bar). Exit 2
 * (a usage or input error, such as a file that does not exist) or a crash fails it.
 */

const repoRoot = resolve(import.meta.dirname, "..");
const built = existsSync(join(repoRoot, "dist/cli/main.js"));
const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

/** The commands of each ```sh block: one per line, comments removed. */
export const commandBlocks = (markdown: string): string[][] =>
  [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
    (match[1] ?? "")
      .split("\n")
      .map(withoutComment)
      .filter((line) => line.length > 0),
  );

/** A line without its trailing `# comment` (a `#` outside quotes preceded by a space), trimmed. */
const withoutComment = (line: string): string => {
  let quote: string | undefined;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quote !== undefined) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === "#" && (index === 0 || /\s/.test(line[index - 1] ?? "")))
      return line.slice(0, index).trim();
  }
  return line.trim();
};

const notRun = new Set(["npm test"]);
const serverCommand = /^veracity (serve|mcp)(\s|$)(?!keys)/;

interface Outcome {
  readonly code: number | null;
  readonly output: string;
}

let copy = "";
let env: NodeJS.ProcessEnv = {};
let fixtures: FixtureServer | undefined;

const runShell = (command: string, timeoutMs = 120_000): Promise<Outcome> =>
  new Promise((resolveRun) => {
    const child = spawn("sh", ["-c", command], { cwd: copy, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolveRun({ code, output });
    });
  });

/** Starts a server command; resolves with whether it was still running once ready, then stops it. */
const runServer = (command: string): Promise<Outcome & { readonly running: boolean }> =>
  new Promise((resolveRun) => {
    const child: ChildProcess = spawn("sh", ["-c", `exec ${command}`], {
      cwd: copy,
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    let exited: number | null | undefined;
    const settle = () => {
      const running = exited === undefined;
      child.kill("SIGTERM");
      const code = exited ?? null;
      setTimeout(() => resolveRun({ code, output, running }), 200);
    };
    const timer = setTimeout(settle, 8_000);
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (/listening on/.test(output)) {
        clearTimeout(timer);
        setTimeout(settle, 300);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    child.on("exit", (code) => {
      exited = code;
    });
  });

const filesOfCheckout = (): string[] =>
  execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: repoRoot,
    encoding: "utf8",
  })
    .split("\0")
    // node_modules and dist are linked below; a checkout whose node_modules is itself a symbolic link (a git
    // worktree sharing another's install) lists it as an untracked file.
    .filter(
      (file) =>
        file.length > 0 && file !== "node_modules" && file !== "dist" && existsSync(join(repoRoot, file)),
    );

beforeAll(async () => {
  if (!built) return;
  copy = mkdtempSync(join(tmpdir(), "veracity-readme-"));
  for (const file of filesOfCheckout()) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    copyFileSync(join(repoRoot, file), join(copy, file));
  }
  symlinkSync(join(repoRoot, "node_modules"), join(copy, "node_modules"));
  symlinkSync(join(repoRoot, "dist"), join(copy, "dist"));
  const bin = join(copy, ".readme-bin");
  mkdirSync(bin);
  writeFileSync(
    join(bin, "veracity"),
    `#!/bin/sh\nexec "${process.execPath}" "${join(copy, "dist/cli/main.js")}" "$@"\n`,
  );
  chmodSync(join(bin, "veracity"), 0o755);
  fixtures = await startFixtureServer();
  // The user's environment, without what the test runner sets for its own processes.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name !== "NODE_OPTIONS" && !name.startsWith("VITEST")),
  );
  env = {
    ...inherited,
    PATH: `${bin}:${dirname(process.execPath)}:${process.env.PATH ?? ""}`,
    HOME: join(copy, ".home"),
    VERACITY_CACHE_DIR: join(copy, ".cache"),
    VERACITY_DATASETS_MIRROR: fixtures.url,
    VERACITY_DATASETS_DIR: "",
    NO_COLOR: "1",
  };
}, 120_000);

afterAll(async () => {
  await fixtures?.close();
});

describe.skipIf(!built)("every command of the README, from a fresh copy", () => {
  const blocks = commandBlocks(readme);

  it("finds the README's command blocks", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks.flat()).toContain("veracity datasets list");
  });

  it.each(blocks.map((commands, index) => [index + 1, commands.join(" ; ").slice(0, 80), commands] as const))(
    "block %i runs: %s",
    async (_index, _title, commands) => {
      const ids: string[] = [];
      for (const raw of commands) {
        const command = raw
          .replace(/^npm install && /, "")
          .replace(/^npx veracity /, "veracity ")
          .replace(/<id>/g, () => ids[0] ?? "<id>");
        if (notRun.has(command) || command === "npm install") continue;
        if (serverCommand.test(command)) {
          const port = await freePort();
          const outcome = await runServer(command.replace(/--port \d+/, `--port ${port}`));
          expect(outcome.running, `${command} stopped early:\n${outcome.output}`).toBe(true);
          continue;
        }
        const outcome = await runShell(command);
        ids.push(
          ...(outcome.output.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g) ?? []),
        );
        expect([0, 1], `${command} exited ${outcome.code}:\n${outcome.output}`).toContain(outcome.code);
      }
    },
    600_000,
  );
});
