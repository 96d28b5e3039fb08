import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { buildIsCurrent, currentBuildOf } from "./current-build.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A checkout with the given files, each written with its modification time in seconds (epoch). */
const checkout = (files: Record<string, number>): string => {
  const root = mkdtempSync(path.join(tmpdir(), "veracity-build-"));
  roots.push(root);
  for (const [file, seconds] of Object.entries(files)) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, `// ${file}\n`);
    utimesSync(full, seconds, seconds);
  }
  return root;
};

const built = 2_000_000_000;

describe("buildIsCurrent", () => {
  it("holds when the build's last output is newer than every compiled source", () => {
    const root = checkout({
      "src/a/b.ts": built - 100,
      "src/c.ts": built - 1,
      "dist/a/b.js": built - 5,
      "dist/cli/main.js": built,
    });
    expect(buildIsCurrent(root)).toBe(true);
  });

  it("fails when any compiled source changed after the build, however deep", () => {
    const root = checkout({ "src/a/b/c/d.ts": built + 1, "src/e.ts": built - 50, "dist/cli/main.js": built });
    expect(buildIsCurrent(root)).toBe(false);
  });

  it("ignores test files, which the build does not compile", () => {
    const root = checkout({ "src/a.ts": built - 10, "src/a.test.ts": built + 60, "dist/cli/main.js": built });
    expect(buildIsCurrent(root)).toBe(true);
  });

  it("fails without a build, or without sources to compare with", () => {
    expect(buildIsCurrent(checkout({ "src/a.ts": built - 10, "dist/a.js": built }))).toBe(false);
    expect(buildIsCurrent(checkout({ "dist/cli/main.js": built }))).toBe(false);
  });
});

describe("currentBuildOf", () => {
  it("maps a source to its compiled copy only when the build is current and holds that copy", () => {
    const root = checkout({
      "src/x/worker.ts": built - 10,
      "src/x/only-source.ts": built - 10,
      "dist/x/worker.js": built - 1,
      "dist/cli/main.js": built,
    });
    const build = currentBuildOf(root);
    const worker = path.join(root, "src/x/worker.ts");
    expect(build.compiledCopyOf(worker)).toBe(path.join(root, "dist/x/worker.js"));
    expect(build.nodeArgsToRun(worker)).toEqual([path.join(root, "dist/x/worker.js")]);
    expect(build.compiledUrlOf(pathToFileURL(worker)).href).toBe(
      pathToFileURL(path.join(root, "dist/x/worker.js")).href,
    );
    const onlySource = path.join(root, "src/x/only-source.ts");
    expect(build.compiledCopyOf(onlySource)).toBeUndefined();
    expect(build.nodeArgsToRun(onlySource)).toEqual(["--import", "tsx", onlySource]);
    // Outside src/, and not a TypeScript module: nothing to map.
    expect(build.compiledCopyOf(path.join(root, "bench/x.ts"))).toBeUndefined();
    expect(build.compiledCopyOf(path.join(root, "src/x/data.json"))).toBeUndefined();
  });

  it("runs the sources through tsx when a source is newer than the build", () => {
    const root = checkout({
      "src/x/worker.ts": built + 10,
      "dist/x/worker.js": built - 1,
      "dist/cli/main.js": built,
    });
    const build = currentBuildOf(root);
    const worker = path.join(root, "src/x/worker.ts");
    expect(build.nodeArgsToRun(worker)).toEqual(["--import", "tsx", worker]);
    const url = pathToFileURL(worker);
    expect(build.compiledUrlOf(url)).toBe(url);
  });
});
