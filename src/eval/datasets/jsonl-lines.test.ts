import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type JsonlLine, readJsonlLines } from "./jsonl-lines.js";

describe("readJsonlLines", () => {
  it("numbers lines from 1 counting blank ones, and reports over-long lines instead of parsing them", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-jsonl-"));
    const path = join(dir, "lines.jsonl");
    await writeFile(path, `{"a":1}\r\n\n   \n"${"x".repeat(50)}"\n[1,2]`);
    const lines: JsonlLine[] = [];
    for await (const line of readJsonlLines(path, { maxLineLength: 40 })) lines.push(line);
    expect(lines).toEqual([
      { lineNumber: 1, ok: true, value: { a: 1 } },
      { lineNumber: 4, ok: false, reason: "line longer than 40 characters" },
      { lineNumber: 5, ok: true, value: [1, 2] },
    ]);
  });
});
