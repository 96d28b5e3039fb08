import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseEvalArgs } from "./eval-options.js";

const isDatasetName = (name: string) => ["summedits", "begin"].includes(name);

describe("parseEvalArgs --data", () => {
  it("takes a registered dataset name as a dataset and anything else as a file", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "veracity-eval-args-"));
    const options = parseEvalArgs(
      ["--data", "summedits", "--data", "mine.jsonl", "begin"],
      cwd,
      isDatasetName,
    );
    expect(options.dataNames).toEqual(["summedits", "begin"]);
    expect(options.dataFiles).toEqual([join(cwd, "mine.jsonl")]);
  });

  it("prefers an existing file over a dataset of the same name", async () => {
    const cwd = await mkdtemp(join(tmpdir(), "veracity-eval-args-"));
    await writeFile(join(cwd, "begin"), "");
    const options = parseEvalArgs(["--data", "begin"], cwd, isDatasetName);
    expect(options.dataNames).toEqual([]);
    expect(options.dataFiles).toEqual([join(cwd, "begin")]);
  });
});
