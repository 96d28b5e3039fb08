import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const repoRoot = resolve(import.meta.dirname, "..");
const recorder = resolve(import.meta.dirname, "fixtures/record-modules.mjs");
const scratch = mkdtempSync(join(tmpdir(), "veracity-lazy-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The packages a plain verification must not load: chain clients, databases, model SDKs. */
const heavyPackages = ["viem", "@electric-sql/pglite", "pg", "ai", "@ai-sdk/provider", "@ai-sdk/openai"];

/** The package a module URL belongs to (`@scope/name` or `name`), or undefined for Node's own and ours. */
const packageOf = (url: string): string | undefined =>
  /\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*\/node_modules\/)/.exec(url)?.[1];

let runs = 0;
/** Runs node with the module recorder in the repository's root (where `veracity` resolves to dist/). */
const loadedPackages = (args: readonly string[]): Set<string> => {
  const recordTo = join(scratch, `modules-${runs++}.txt`);
  const result = spawnSync(process.execPath, ["--import", recorder, ...args], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, RECORD_MODULES_TO: recordTo },
  });
  expect(result.stderr).toBe("");
  const urls = readFileSync(recordTo, "utf8").split("\n").filter(Boolean);
  return new Set(urls.map(packageOf).filter((name) => name !== undefined));
};

const runModule = (script: string) => loadedPackages(["--input-type=module", "-e", script]);

describe.skipIf(!existsSync(resolve(repoRoot, "dist/index.js")))("what the built package loads", () => {
  it("importing the root entry point loads no chain client, database or model SDK", () => {
    const loaded = runModule(`await import("veracity");`);
    expect(loaded.has("effect")).toBe(true); // the recorder sees packages
    expect(heavyPackages.filter((name) => loaded.has(name))).toEqual([]);
  });

  it("verifying an answer offline loads none of them either", () => {
    const loaded = runModule(`
      const { createVerifier } = await import("veracity");
      const verifier = createVerifier();
      await verifier.verify({ text: "The bridge opened in 1932.", sources: ["The bridge opened in 1932."] });`);
    expect(heavyPackages.filter((name) => loaded.has(name))).toEqual([]);
  });

  it("`veracity check` on a small file loads none of them", () => {
    const loaded = loadedPackages([
      "dist/cli/main.js",
      "check",
      "examples/answer.md",
      "--source",
      "examples/source.md",
    ]);
    expect(heavyPackages.filter((name) => loaded.has(name))).toEqual([]);
    // The command is one bundle (scripts/bundle-cli.mjs): the recorder still sees what it loads from
    // node_modules, as the same check with a memory store shows.
    const withMemory = loadedPackages([
      "dist/cli/main.js",
      "check",
      "examples/answer.md",
      "--source",
      "examples/source.md",
      "--memory-db",
      join(scratch, "memory"),
      "--user",
      "sam",
    ]);
    expect(withMemory.has("@electric-sql/pglite")).toBe(true);
  });

  // The controls: each package is loaded once it is asked for, and the recorder sees both module systems.
  it("loads the AI SDK when a calculator tool is made (a CommonJS require)", () => {
    const loaded = runModule(`const { calculatorTool } = await import("veracity"); calculatorTool();`);
    expect(loaded.has("ai")).toBe(true);
  });

  it("loads PGlite when an embedded store is opened (an ES module import)", () => {
    const loaded = runModule(`
      const { Effect } = await import("effect");
      const { openSqlClient } = await import("veracity/storage");
      const client = await Effect.runPromise(openSqlClient("memory://"));
      await Effect.runPromise(client.close);`);
    expect(loaded.has("@electric-sql/pglite")).toBe(true);
    expect(loaded.has("pg")).toBe(false);
  });

  it("loads viem's checksum code at the first mixed-case address", () => {
    const loaded = runModule(`
      const { extractCitations } = await import("veracity");
      extractCitations("Paid to [ADDR:0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed] today.");`);
    expect(loaded.has("viem")).toBe(true);
  });
});
