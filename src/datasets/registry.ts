import { DatasetError } from "./errors.js";
import { begin } from "./sources/begin.js";
import { ethereumEtl } from "./sources/ethereum-etl.js";
import { haluEval } from "./sources/halueval.js";
import { summEdits } from "./sources/summedits.js";
import { tatQa } from "./sources/tatqa.js";
import type { DatasetSpec } from "./spec.js";

/** The public sets `veracity datasets` knows by name. */
export const datasets: readonly DatasetSpec[] = [summEdits, begin, tatQa, haluEval, ethereumEtl];

export const findDataset = (registry: readonly DatasetSpec[], name: string): DatasetSpec => {
  const spec = registry.find((candidate) => candidate.name === name.toLowerCase());
  if (spec === undefined)
    throw new DatasetError({
      message: `unknown dataset "${name}" (known: ${registry.map((candidate) => candidate.name).join(", ")})`,
      code: "unknown-dataset",
    });
  return spec;
};
