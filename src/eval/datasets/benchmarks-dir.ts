import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";

/** The shared benchmarks folder: `VERACITY_BENCHMARKS_DIR`, else `../shared/benchmarks` beside the repository. */
export const benchmarksDir = (repoRoot: string, env: Readonly<Record<string, string | undefined>>): string =>
  env.VERACITY_BENCHMARKS_DIR !== undefined && env.VERACITY_BENCHMARKS_DIR !== ""
    ? resolve(env.VERACITY_BENCHMARKS_DIR)
    : resolve(repoRoot, "../shared/benchmarks");

/**
 * The labelled files in the common JSONL form: the `*.jsonl` files at the top of the folder (the
 * `ethereum/` subfolder holds an evidence store, not labelled responses). Empty when the folder is absent.
 */
export const benchmarkFiles = (dir: string): readonly string[] =>
  existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith(".jsonl"))
        .map((entry) => join(dir, entry.name))
        .sort()
    : [];
