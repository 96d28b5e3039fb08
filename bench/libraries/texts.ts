import { readFile } from "node:fs/promises";
import { benchmarkFile, howToGetData } from "../../src/datasets/benchmark-data.js";

/** The records of one labelled file (`summedits.jsonl`...), or none when the data does not hold it. */
export const readBenchmarkRecords = async (
  name: string,
): Promise<{ readonly response?: string; readonly context?: string }[]> => {
  const file = benchmarkFile(process.env, name);
  if (file === undefined) return [];
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as { response?: string; context?: string });
};

/** Up to `limit` distinct source texts (each record's context) from the labelled files, in file order. */
export const readBenchmarkTexts = async (limit: number): Promise<string[]> => {
  const texts = new Set<string>();
  for (const name of ["summedits.jsonl", "begin.jsonl", "tatqa.jsonl", "frank_cnndm.jsonl"]) {
    for (const record of await readBenchmarkRecords(name)) {
      if (record.context) texts.add(record.context);
      if (texts.size >= limit) return [...texts];
    }
  }
  if (texts.size === 0) throw new Error(`no labelled data: ${howToGetData}`);
  return [...texts];
};
