import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { MalformedLine } from "../eval/datasets/read-records.js";
import { readEvalRecords } from "../eval/datasets/read-records.js";
import { benchmarkData, benchmarkFile, ethereumData, howToGetData } from "./benchmark-data.js";

describe("benchmarkData", () => {
  it("reads VERACITY_DATASETS_DIR when set, else the datasets fetched into the cache", async () => {
    const root = await mkdtemp(join(tmpdir(), "veracity-bench-data-"));
    const development = join(root, "dev");
    await mkdir(join(development, "ethereum"), { recursive: true });
    await writeFile(join(development, "b.jsonl"), "");
    await writeFile(join(development, "a.jsonl"), "");
    await writeFile(join(development, "ethereum", "transactions.jsonl"), "");
    expect(benchmarkData({ VERACITY_DATASETS_DIR: development }).files).toEqual([
      join(development, "a.jsonl"),
      join(development, "b.jsonl"),
    ]);
    expect(ethereumData({ VERACITY_DATASETS_DIR: development })).toBe(join(development, "ethereum"));

    const cache = join(root, "cache");
    await mkdir(join(cache, "tatqa"), { recursive: true });
    await writeFile(join(cache, "tatqa", "tatqa.jsonl"), "");
    expect(benchmarkData({ VERACITY_CACHE_DIR: cache }).files).toEqual([]); // no manifest: not a complete fetch
    await writeFile(join(cache, "tatqa", "manifest.json"), "{}");
    expect(benchmarkFile({ VERACITY_CACHE_DIR: cache }, "tatqa.jsonl")).toBe(
      join(cache, "tatqa", "tatqa.jsonl"),
    );
    expect(ethereumData({ VERACITY_CACHE_DIR: cache })).toBeUndefined();
  });
});

const data = benchmarkData(process.env);
const title =
  data.files.length > 0
    ? `labelled data in the common form (${data.source})`
    : `labelled data in the common form (SKIPPED: none in ${data.source}; ${howToGetData})`;

describe.skipIf(data.files.length === 0)(title, () => {
  it.each(data.files.map((file) => [file.replace(/^.*[/\\]/, ""), file]))(
    "%s decodes with no malformed line",
    async (_name, file) => {
      const malformed: MalformedLine[] = [];
      let count = 0;
      let badSpans = 0;
      for await (const record of readEvalRecords(file, {
        onMalformed: "skip",
        maxRecords: 1_000_000,
        reportMalformed: (line) => malformed.push(line),
      })) {
        count += 1;
        for (const span of record.spans)
          if (span.end > record.response.length || span.start > span.end) badSpans += 1;
      }
      expect(malformed).toEqual([]);
      expect(count).toBeGreaterThan(0);
      expect(badSpans).toBe(0);
    },
  );
});
