import { existsSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { datasetsCacheDir } from "./cache-dir.js";
import { manifestFileName } from "./manifest.js";
import { datasets } from "./registry.js";

type Env = Readonly<Record<string, string | undefined>>;

/** Where the benches and the data-driven tests read labelled data from, and which files. */
export interface BenchmarkData {
  /** `VERACITY_DATASETS_DIR`, or the datasets cache. */
  readonly source: string;
  /** Labelled files in the common JSONL form, sorted. Empty when there is no data. */
  readonly files: readonly string[];
}

const set = (value: string | undefined): value is string => value !== undefined && value.trim() !== "";

/** The labelled file of each dataset fetched into the cache (`veracity datasets fetch`). */
const fetchedFiles = (cacheDir: string): string[] =>
  datasets.flatMap((spec) => {
    if (spec.evalFile === undefined) return [];
    const dir = join(cacheDir, spec.name);
    const file = join(dir, spec.evalFile);
    return existsSync(join(dir, manifestFileName)) && existsSync(file) ? [file] : [];
  });

/**
 * Labelled data for benches and tests: the `*.jsonl` files at the top of `VERACITY_DATASETS_DIR` when it is
 * set (a folder in the common form, such as a development copy of the converted sets), else the datasets
 * fetched into the cache (`VERACITY_CACHE_DIR` or the user cache folder).
 */
export const benchmarkData = (env: Env): BenchmarkData => {
  if (set(env.VERACITY_DATASETS_DIR)) {
    const dir = resolve(env.VERACITY_DATASETS_DIR);
    const files = existsSync(dir)
      ? readdirSync(dir, { withFileTypes: true })
          .filter((entry) => entry.isFile() && entry.name.endsWith(".jsonl"))
          .map((entry) => join(dir, entry.name))
      : [];
    return { source: dir, files: files.sort() };
  }
  const cacheDir = datasetsCacheDir(env);
  return { source: cacheDir, files: fetchedFiles(cacheDir).sort() };
};

/** One labelled file by name (`tatqa.jsonl`, `summedits.jsonl`...), when the data holds it. */
export const benchmarkFile = (env: Env, name: string): string | undefined =>
  benchmarkData(env).files.find((file) => file.endsWith(`/${name}`) || file.endsWith(`\\${name}`));

/**
 * The ethereum-etl records (blocks, transactions, token transfers... as JSONL): `VERACITY_DATASETS_DIR/ethereum`,
 * else the fetched `ethereum-etl` dataset. Undefined when neither holds transactions.
 */
export const ethereumData = (env: Env): string | undefined => {
  const dir = set(env.VERACITY_DATASETS_DIR)
    ? join(resolve(env.VERACITY_DATASETS_DIR), "ethereum")
    : join(datasetsCacheDir(env), "ethereum-etl");
  return existsSync(join(dir, "transactions.jsonl")) ? dir : undefined;
};

/** What to do when there is no data, for a skip message. */
export const howToGetData =
  "set VERACITY_DATASETS_DIR to a folder of converted sets, or run veracity datasets fetch NAME";
