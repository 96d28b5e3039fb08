import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { countBar, countLines, terminalProgress } from "./progress.js";

describe("terminalProgress", () => {
  it("rewrites one stderr line on a terminal and clears it when done", () => {
    const written: string[] = [];
    const progress = terminalProgress(true, (text) => written.push(text));
    progress.update?.("summedits: file 1/6, 0.1 MB");
    progress.done();
    expect(written).toEqual(["\r\x1b[2Ksummedits: file 1/6, 0.1 MB", "\r\x1b[2K"]);
  });

  it("writes nothing when stderr is not a terminal", () => {
    const written: string[] = [];
    const progress = terminalProgress(false, (text) => written.push(text));
    expect(progress.update).toBeUndefined();
    progress.done();
    expect(written).toEqual([]);
  });

  it("drops updates within 100 ms of the last one shown, unless forced", () => {
    const written: string[] = [];
    let now = 1_000;
    const progress = terminalProgress(
      true,
      (text) => written.push(text),
      () => now,
    );
    progress.update?.("1");
    now += 50;
    progress.update?.("2");
    progress.update?.("3", { force: true });
    now += 100;
    progress.update?.("4");
    expect(written).toEqual(["\r\x1b[2K1", "\r\x1b[2K3", "\r\x1b[2K4"]);
  });
});

describe("countBar", () => {
  it.each([
    [0, 4, "eval [------------------------] 0/4 (0%)"],
    [1, 4, "eval [######------------------] 1/4 (25%)"],
    [4, 4, "eval [########################] 4/4 (100%)"],
    [12_345, 10_000, "eval [########################] 12,345/10,000 (100%)"],
    [7, undefined, "eval 7"],
  ])("draws %s of %s", (done, total, expected) => {
    expect(countBar("eval", done, total)).toBe(expected);
  });
});

describe("countLines", () => {
  it("counts non-blank lines, up to a limit", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-lines-"));
    const file = join(dir, "records.jsonl");
    await writeFile(file, "a\n\nb\r\n  \nc");
    expect(await countLines(file, 100)).toBe(3);
    expect(await countLines(file, 2)).toBe(2);
  });
});
