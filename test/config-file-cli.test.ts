import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ExitCode } from "../src/cli/command.js";
import { runCliIn } from "../src/cli/testing.js";

/**
 * `veracity check` reads the one configuration file, server section and all. The file turns strict mode on,
 * which changes the outcome of an answer nothing can check from "unverified" (exit 3) to "failed" (exit 1), so
 * each case shows whether the file's settings were applied.
 */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "veracity-config-cli-"));
  await writeFile(join(dir, "answer.md"), "The gate approves every memory within an hour.");
  await writeFile(
    join(dir, "veracity.yaml"),
    "strict: true\nserver:\n  port: 9000\n  limits:\n    rateLimit: { requests: 10, windowMs: 1000 }\n",
  );
  await writeFile(join(dir, "veracity.json"), JSON.stringify({ strict: true, server: { port: 9000 } }));
  await writeFile(join(dir, "server-only.yaml"), "port: 9000\nhost: 127.0.0.1\n");
});

describe("one configuration file for `veracity check`", () => {
  it("without a file, an answer nothing can check is unverified", async () => {
    expect((await runCliIn(["check", "answer.md"], dir)).code).toBe(ExitCode.unverified);
  });

  it.each(["veracity.yaml", "veracity.json"])(
    "applies the settings of %s despite its server section",
    async (file) => {
      const result = await runCliIn(["check", "answer.md", "--config", file], dir);
      expect(result.stderr).toBe("");
      expect(result.code).toBe(ExitCode.findings);
    },
  );

  it("reads the file VERACITY_CONFIG names", async () => {
    const result = await runCliIn(["check", "answer.md"], dir, { env: { VERACITY_CONFIG: "veracity.yaml" } });
    expect(result.code).toBe(ExitCode.findings);
  });

  it("lets a VERACITY_* variable override the file", async () => {
    const env = { VERACITY_CONFIG: "veracity.yaml", VERACITY_STRICT: "0" };
    expect((await runCliIn(["check", "answer.md"], dir, { env })).code).toBe(ExitCode.unverified);
  });

  it("accepts a server file of the earlier format (it changes nothing about verification)", async () => {
    const result = await runCliIn(["check", "answer.md", "--config", "server-only.yaml"], dir);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(ExitCode.unverified);
  });

  it("refuses a misspelt key with its path, as a usage error", async () => {
    await writeFile(join(dir, "typo.yaml"), "server:\n  prot: 9000\n");
    const result = await runCliIn(["check", "answer.md", "--config", "typo.yaml"], dir);
    expect(result.code).toBe(ExitCode.usage);
    expect(result.stderr).toMatch(/server\.prot/);
  });
});
