import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { benchmarkFiles, benchmarksDir } from "./benchmarks-dir.js";
import type { MalformedLine } from "./read-records.js";
import { readEvalRecords } from "./read-records.js";

const repoRoot = resolve(import.meta.dirname, "../../..");
const files = benchmarkFiles(benchmarksDir(repoRoot, process.env));
const title =
  files.length > 0
    ? "shared benchmarks in the common form"
    : "shared benchmarks in the common form (SKIPPED: no *.jsonl in VERACITY_BENCHMARKS_DIR or ../shared/benchmarks)";

describe("benchmarksDir", () => {
  it("prefers VERACITY_BENCHMARKS_DIR and falls back to ../shared/benchmarks", () => {
    expect(benchmarksDir("/repo", { VERACITY_BENCHMARKS_DIR: "/data/bench" })).toBe("/data/bench");
    expect(benchmarksDir("/work/repo", {})).toBe("/work/shared/benchmarks");
  });
});

describe.skipIf(files.length === 0)(title, () => {
  it.each(files.map((file) => [file.replace(/^.*\//, ""), file]))(
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
