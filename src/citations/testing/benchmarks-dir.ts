import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** The shared benchmark data: `VERACITY_BENCHMARKS_DIR`, else `../shared/benchmarks` beside the repository. */
export const benchmarksDirectory = (): string =>
  process.env.VERACITY_BENCHMARKS_DIR ?? path.resolve(repositoryRoot, "../shared/benchmarks");

export const ethereumDirectory = (): string => path.join(benchmarksDirectory(), "ethereum");

/** Why a suite needing the shared data is skipped, or undefined when the data is there. */
export const missingEthereumData = (): string | undefined =>
  existsSync(path.join(ethereumDirectory(), "transactions.jsonl"))
    ? undefined
    : `shared benchmark data not found at ${ethereumDirectory()} (set VERACITY_BENCHMARKS_DIR)`;
