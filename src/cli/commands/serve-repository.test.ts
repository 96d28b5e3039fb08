import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { nodeArgsToRun } from "../../facade/worker-pool/current-build.js";
import { makeTestRepository } from "../../testing/git-repository.js";
import type { CliIO } from "../command.js";
import { runCli } from "../run-cli.js";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const cli = path.join(repoRoot, "src/cli/main.ts");
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

/** The CLI run in this process, its standard output collected. */
const cliIn = (cwd: string) => {
  const out: string[] = [];
  const io: CliIO = {
    stdout: (text) => out.push(text),
    stderr: () => {},
    readStdin: async () => "",
    isTTY: false,
    cwd,
    env: {},
  };
  return { io, out };
};

/**
 * `veracity serve` in its own process with `args`, run from the project's folder (where its loader resolves);
 * resolves with its URL once it listens.
 */
const startServe = (args: readonly string[]) => {
  const child = spawn(process.execPath, [...nodeArgsToRun(cli), "serve", ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env },
  });
  children.push(child);
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
  return {
    url,
    /** Sends SIGTERM; resolves with the exit code and what the process printed. */
    stop: async () => {
      child.kill("SIGTERM");
      return { code: await exited, output };
    },
  };
};

describe("veracity serve --repository", () => {
  it("checks /v1/verify's cited commits against the repository, in its verification workers", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "veracity-serve-repository-"));
    const repository = await makeTestRepository({ "README.md": "The app.\n" });
    try {
      const { io, out } = cliIn(dir);
      expect(await runCli(["serve", "keys", "create", "--user", "alice", "--db", "data"], io)).toBe(0);
      const key = out.join("").trim();
      // A path relative to the working directory, as a user types it.
      const relative = path.relative(repoRoot, repository.directory);
      const server = startServe([
        "--port",
        "0",
        "--db",
        path.join(dir, "data"),
        "--repository",
        relative,
        "--verify-workers",
        "1",
        "--warm-up-ms",
        "0",
      ]);
      try {
        const verify = async (text: string) => {
          const response = await fetch(`${await server.url}/v1/verify`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({ text }),
          });
          expect(response.status).toBe(200);
          return (await response.json()) as {
            verdict: string;
            layersRun: { layer: string; passed: boolean }[];
          };
        };
        const citationsOf = (answer: Awaited<ReturnType<typeof verify>>) =>
          answer.layersRun.find((layer) => layer.layer === "citations");
        const missing = await verify("The fix landed in commit deadbeef12.");
        expect(citationsOf(missing)?.passed).toBe(false);
        expect(missing.verdict).toBe("fail");
        const real = await verify(`The fix landed in commit ${repository.commit.slice(0, 12)}.`);
        expect(citationsOf(real)?.passed).toBe(true);
      } finally {
        const stopped = await server.stop();
        expect(stopped.code, stopped.output).toBe(0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(repository.directory, { recursive: true, force: true });
    }
  }, 90_000);
});
