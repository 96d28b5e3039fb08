import type { ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { makeTestRepository } from "../../testing/git-repository.js";
import { spawnServe } from "../../testing/serve-process.js";
import { runCli } from "../run-cli.js";
import { capturingIO } from "../testing.js";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

describe("veracity serve --repository", () => {
  it("checks /v1/verify's cited commits against the repository, in its verification workers", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "veracity-serve-repository-"));
    const repository = await makeTestRepository({ "README.md": "The app.\n" });
    try {
      const { io, out } = capturingIO(dir);
      expect(await runCli(["serve", "keys", "create", "--user", "alice", "--db", "data"], io)).toBe(0);
      const key = out.join("").trim();
      // A path relative to the working directory, as a user types it.
      const relative = path.relative(repoRoot, repository.directory);
      const server = spawnServe([
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
      children.push(server.child);
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
        server.child.kill("SIGTERM");
        expect(await server.exited, server.output()).toBe(0);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(repository.directory, { recursive: true, force: true });
    }
  }, 90_000);
});
