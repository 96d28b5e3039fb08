import { join } from "node:path";
import { DatasetError } from "./errors.js";
import { type FetchOptions, fetchDataset } from "./fetch-dataset.js";
import { findDataset } from "./registry.js";
import type { DatasetSpec } from "./spec.js";

/**
 * The labelled JSONL file of each named dataset, fetched into the cache first when it is not there yet
 * (a cached, intact copy is used as is). A name without a labelled file (an evidence store) is an error.
 */
export const labelledFilesOf = async (
  registry: readonly DatasetSpec[],
  names: readonly string[],
  options: FetchOptions,
): Promise<string[]> => {
  const files: string[] = [];
  for (const name of names) {
    const spec = findDataset(registry, name);
    if (spec.evalFile === undefined)
      throw new DatasetError({
        message: `${spec.name} is an evidence store, not labelled responses: use it with veracity evidence import`,
        code: "unknown-dataset",
      });
    const fetched = await fetchDataset(spec, options);
    files.push(join(fetched.dir, spec.evalFile));
  }
  return files;
};
