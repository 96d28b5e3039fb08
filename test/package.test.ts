import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/**
 * The package as a user gets it: `npm pack`, installed in a scratch project from the npm cache (the registry
 * is asked only for what the cache lacks),
 * then every example run against the installed copy. Needs a build (dist/) and the dependencies in the
 * npm cache, which `npm install` in this repository leaves there.
 */
const run = promisify(execFile);
const repoRoot = resolve(import.meta.dirname, "..");
const built = existsSync(join(repoRoot, "dist/index.js"));
const examples = ["rag-middleware", "calculator-agent", "memory-agent", "mcp-client"];

let scratch: string;
let packedFiles: string[];

const npm = (args: string[], cwd: string) =>
  run("npm", args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_audit: "false" } });

describe.skipIf(!built)("the packed package", () => {
  beforeAll(async () => {
    scratch = await mkdtemp(join(tmpdir(), "veracity-pack-"));
    const { stdout } = await npm(
      ["pack", "--json", "--ignore-scripts", "--pack-destination", scratch],
      repoRoot,
    );
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    if (packed === undefined) throw new Error("npm pack printed nothing");
    packedFiles = packed.files.map((file) => file.path);
    await writeFile(
      join(scratch, "package.json"),
      JSON.stringify({ name: "scratch", private: true, type: "module" }),
    );
    // The package, its required peers (installed by npm itself) and the optional peers the examples use.
    await npm(
      [
        "install",
        "--prefer-offline",
        "--no-fund",
        "--ignore-scripts",
        join(scratch, packed.filename),
        "@modelcontextprotocol/sdk",
        "@ai-sdk/openai-compatible",
      ],
      scratch,
    );
    // The examples are TypeScript; the user's project would compile them, here they are transpiled as is.
    for (const name of examples) {
      const source = await readFile(join(repoRoot, "examples", `${name}.ts`), "utf8");
      const { outputText } = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      });
      await writeFile(join(scratch, `${name}.mjs`), outputText);
    }
  }, 600_000);

  afterAll(async () => {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("holds no test files, test helpers outside veracity/testing, or source maps", () => {
    expect(packedFiles.filter((path) => /\.test\.|\.map$|\/fixtures\//.test(path))).toEqual([]);
    expect(
      packedFiles.filter((path) => /\/testing(\/|\.)/.test(path) && !path.startsWith("dist/testing/")),
    ).toEqual([]);
    expect(packedFiles).toContain("dist/index.js");
  });

  it("has no file pointing at a source map or at ../src", async () => {
    const installed = join(scratch, "node_modules/veracity");
    const pointing: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (/\.(js|ts)$/.test(entry.name)) {
          const text = await readFile(path, "utf8");
          if (/sourceMappingURL=|from "\.\.\/src\//.test(text)) pointing.push(path);
        }
      }
    };
    await walk(join(installed, "dist"));
    await walk(join(installed, "examples"));
    expect(pointing).toEqual([]);
  });

  it("installs one copy of ai, the application's", async () => {
    expect(existsSync(join(scratch, "node_modules/ai/package.json"))).toBe(true);
    expect(existsSync(join(scratch, "node_modules/veracity/node_modules/ai"))).toBe(false);
  });

  it("loads every entry point by its export name", async () => {
    const manifest = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as {
      exports: Record<string, unknown>;
    };
    const entries = Object.keys(manifest.exports).filter((entry) => !entry.endsWith(".json"));
    const script = entries
      .map(
        (entry) =>
          `await import(${JSON.stringify(entry === "." ? "veracity" : `veracity/${entry.slice(2)}`)});`,
      )
      .join("\n");
    const optionalPeers = ["@langchain/core"];
    const loaded = await run(process.execPath, ["--input-type=module", "-e", script], { cwd: scratch }).then(
      () => "ok",
      (error: Error) => error.message,
    );
    // The LangChain entry point needs its optional peer, which this scratch project does not install.
    if (loaded !== "ok") expect(optionalPeers.some((peer) => loaded.includes(peer))).toBe(true);
    const withoutLangChain = entries
      .filter((entry) => entry !== "./langchain")
      .map(
        (entry) =>
          `await import(${JSON.stringify(entry === "." ? "veracity" : `veracity/${entry.slice(2)}`)});`,
      )
      .join("\n");
    await run(process.execPath, ["--input-type=module", "-e", withoutLangChain], { cwd: scratch });
  });

  it.each(examples)("runs examples/%s against the installed package", async (name) => {
    const { stdout } = await run(process.execPath, [`${name}.mjs`], { cwd: scratch, timeout: 120_000 });
    expect(stdout.trim().length).toBeGreaterThan(0);
  });

  it("answers `veracity --version` from the installed bin", async () => {
    const { stdout } = await run(join(scratch, "node_modules/.bin/veracity"), ["--version"], {
      cwd: scratch,
    });
    const manifest = JSON.parse(await readFile(join(repoRoot, "package.json"), "utf8")) as {
      version: string;
    };
    expect(stdout.trim()).toBe(manifest.version);
  });
});
