import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCliIn } from "../src/cli/testing.js";

/** What a progress line is drawn with: a carriage return and the "erase line" escape. */
const drawsProgress = (stderr: string) => stderr.includes("\r") || stderr.includes("\x1b[");

const record = (id: string, context: string | null, response: string) =>
  JSON.stringify({
    id,
    dataset: "demo",
    task: "qa",
    context,
    question: null,
    response,
    label: "supported",
    spans: [],
    meta: {},
  });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "veracity-progress-"));
  const bridge = "The bridge opened in 1932 and is 503 metres long.";
  await writeFile(
    join(dir, "mixed.jsonl"),
    [
      record("r1", bridge, "The bridge opened in 1932."),
      record("r2", null, "The bridge opened in 1932."),
      record("r3", bridge, "The bridge is 503 metres long."),
      record("r4", "   ", "The bridge is 800 metres long."),
    ].join("\n"),
  );
  await writeFile(
    join(dir, "grounded.jsonl"),
    [record("g1", bridge, "The bridge opened in 1932."), record("g2", bridge, "It is 503 metres long.")].join(
      "\n",
    ),
  );
});

describe("veracity eval: progress and the records without context", () => {
  it("draws a bar on a terminal's stderr, up to the last record, and clears it before the report", async () => {
    const result = await runCliIn(["eval", "--data", "mixed.jsonl"], dir, { stderrIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("\r\x1b[2Keval [######------------------] 1/4 (25%)");
    expect(result.stderr).toContain("\r\x1b[2Keval [########################] 4/4 (100%)");
    // Cleared, then the warning on a line of its own.
    expect(result.stderr).toMatch(/4\/4 \(100%\)\r\x1b\[2Kveracity eval: warning:/);
    expect(drawsProgress(result.stdout)).toBe(false);
  });

  it.each([
    ["stderr is not a terminal", [], false],
    ["--quiet", ["--quiet"], true],
    ["-q", ["-q"], true],
  ])("draws nothing when %s", async (_, flags, stderrIsTTY) => {
    const result = await runCliIn(["eval", "--data", "mixed.jsonl", ...flags], dir, { stderrIsTTY });
    expect(result.code).toBe(0);
    expect(drawsProgress(result.stderr)).toBe(false);
  });

  it.each([
    ["on a terminal", true, []],
    ["in a pipe", false, []],
    ["with --quiet", true, ["--quiet"]],
  ])("warns with a count of the records without context %s", async (_, stderrIsTTY, flags) => {
    const result = await runCliIn(["eval", "--data", "mixed.jsonl", ...flags], dir, { stderrIsTTY });
    expect(result.stderr).toContain(
      "veracity eval: warning: 2 of 4 records have no context: the offline checks have nothing to check them against, so without a model (--model) each can only be unverified\n",
    );
  });

  it("does not warn when every record has a context", async () => {
    const result = await runCliIn(["eval", "--data", "grounded.jsonl"], dir, { stderrIsTTY: true });
    expect(result.code).toBe(0);
    expect(result.stderr).not.toContain("warning");
  });
});
