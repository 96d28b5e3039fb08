import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

/** The built CLI, for the benches that run `veracity eval` as a user does; throws when it has not been built. */
export const builtCli = (): string => {
  const cli = join(repoRoot, "dist/cli/main.js");
  if (!existsSync(cli)) throw new Error("dist/cli/main.js is missing: run `npm run build` first");
  return cli;
};

/**
 * The labelled files an eval bench reads: the `.jsonl` arguments when there are any, else every `.jsonl` of
 * VERACITY_DATASETS_DIR (../shared/benchmarks by default), in name order.
 */
export const labelledFiles = (args: readonly string[]): string[] => {
  const given = args.filter((arg) => arg.endsWith(".jsonl"));
  if (given.length > 0) return given;
  const datasets = process.env.VERACITY_DATASETS_DIR ?? join(repoRoot, "../shared/benchmarks");
  return readdirSync(datasets)
    .filter((name) => name.endsWith(".jsonl"))
    .sort()
    .map((name) => join(datasets, name));
};
