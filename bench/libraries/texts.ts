import { readFile } from "node:fs/promises";
import { benchmarkFile, howToGetData } from "../../src/datasets/benchmark-data.js";

/** Up to `limit` distinct source texts (each record's context) from the labelled files, in file order. */
export const readBenchmarkTexts = async (limit: number): Promise<string[]> => {
  const texts = new Set<string>();
  for (const name of ["summedits.jsonl", "begin.jsonl", "tatqa.jsonl", "frank_cnndm.jsonl"]) {
    const file = benchmarkFile(process.env, name);
    if (file === undefined) continue;
    for (const line of (await readFile(file, "utf8")).split("\n")) {
      if (!line.trim()) continue;
      const record = JSON.parse(line) as { context?: string };
      if (record.context) texts.add(record.context);
      if (texts.size >= limit) return [...texts];
    }
  }
  if (texts.size === 0) throw new Error(`no labelled data: ${howToGetData}`);
  return [...texts];
};
