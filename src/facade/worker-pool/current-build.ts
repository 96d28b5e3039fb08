/**
 * Code that runs from its TypeScript sources (the test suite, `tsx`) starts some of its own modules in a new
 * thread or process: the verifier's worker, the `veracity` command, a store in another process. Through tsx
 * each start compiles and loads the module graph again: about 3 s of CPU for the verifier's worker against
 * 1.1 s for the compiled one, about 3.9 s against 0.4 s for `veracity check` on a short answer and its source
 * (2-core machine, 2026-11-27).
 * When the build in dist/ holds the sources as they are now, the compiled copy is started instead.
 *
 * The build counts as current when it finished after the last change to any file under src/ that it compiles
 * (test files are not compiled). The build's last step writes dist/cli/main.js (scripts/bundle-cli.mjs), so
 * that file's time is the build's. An edit after the build, a checkout, a build that failed half-way: each
 * leaves a source newer than that file, and the sources are run through tsx as before.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const modifiedAt = (file: string): number | undefined => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

/** True when `dist/` under `repoRoot` was built after the last change to the sources it compiles. */
export const buildIsCurrent = (repoRoot: string): boolean => {
  const builtAt = modifiedAt(path.join(repoRoot, "dist", "cli", "main.js"));
  if (builtAt === undefined) return false;
  const sourceRoot = path.join(repoRoot, "src");
  let entries: string[];
  try {
    entries = readdirSync(sourceRoot, { recursive: true, encoding: "utf8" });
  } catch {
    return false;
  }
  for (const entry of entries) {
    if (entry.endsWith(".test.ts")) continue;
    const changedAt = modifiedAt(path.join(sourceRoot, entry));
    if (changedAt !== undefined && changedAt > builtAt) return false;
  }
  return true;
};

export interface CurrentBuild {
  /**
   * The compiled copy of a module under src/ (`src/a/b.ts` → `dist/a/b.js`) when the build is current and
   * holds it; undefined otherwise, and for a file outside src/. Whether the build is current is read once.
   */
  readonly compiledCopyOf: (sourceFile: string) => string | undefined;
  /** Node's arguments to run a module under src/ as a program: its compiled copy, else the source through tsx. */
  readonly nodeArgsToRun: (sourceFile: string) => string[];
  /** A worker module's URL: its compiled copy when there is one, else the URL as given. */
  readonly compiledUrlOf: (sourceUrl: URL) => URL;
}

export const currentBuildOf = (repoRoot: string): CurrentBuild => {
  const sourceRoot = path.join(repoRoot, "src");
  let current: boolean | undefined;
  const compiledCopyOf = (sourceFile: string): string | undefined => {
    const relative = path.relative(sourceRoot, sourceFile);
    if (relative.startsWith("..") || path.isAbsolute(relative) || !relative.endsWith(".ts")) return undefined;
    if (relative.endsWith(".test.ts")) return undefined;
    current ??= buildIsCurrent(repoRoot);
    if (!current) return undefined;
    const compiled = path.join(repoRoot, "dist", `${relative.slice(0, -".ts".length)}.js`);
    return modifiedAt(compiled) === undefined ? undefined : compiled;
  };
  return {
    compiledCopyOf,
    nodeArgsToRun: (sourceFile) => {
      const compiled = compiledCopyOf(sourceFile);
      return compiled === undefined ? ["--import", "tsx", sourceFile] : [compiled];
    },
    compiledUrlOf: (sourceUrl) => {
      const compiled = sourceUrl.protocol === "file:" ? compiledCopyOf(fileURLToPath(sourceUrl)) : undefined;
      return compiled === undefined ? sourceUrl : pathToFileURL(compiled);
    },
  };
};

/** This checkout's build, for code running from this checkout's sources. */
export const { compiledCopyOf, nodeArgsToRun, compiledUrlOf } = currentBuildOf(
  fileURLToPath(new URL("../../../", import.meta.url)),
);
