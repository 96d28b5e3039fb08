import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inThisThreadReason } from "../src/cli/commands/eval.js";
import { runCliIn } from "../src/cli/testing.js";

/**
 * `veracity eval --concurrency N` keeps N verifications in flight; the records, verdicts and scores must be
 * exactly those of a run with one at a time, whatever order they finish in.
 */
const source =
  "The museum opened in 1932 on the north bank. It holds 4,200 paintings and 310 sculptures, and 1.2 million people visited it in 2023, up from 0.9 million in 2022.";
const answers = [
  ["The museum opened in 1932 on the north bank.", "supported"],
  ["The museum opened in 1923 on the south bank.", "hallucinated"],
  ["It holds 4,200 paintings and 310 sculptures.", "supported"],
  ["It holds 2,400 paintings and 130 sculptures.", "hallucinated"],
  ["Visitors rose from 0.9 million in 2022 to 1.2 million in 2023.", "supported"],
  ["Visitors fell from 1.2 million in 2022 to 0.9 million in 2023.", "hallucinated"],
  ["About 1.2 million people visited in 2023.", "supported"],
  ["The museum was designed by a famous Danish architect.", "hallucinated"],
] as const;

/** Each prediction without its latency, which differs from run to run. */
const predictions = async (dir: string): Promise<string[]> =>
  (await readFile(join(dir, "predictions.csv"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => {
      const cells = line.split(",");
      cells.splice(8, 1);
      return cells.join(",");
    })
    .sort();

describe("eval --concurrency", () => {
  it("gives the same predictions as one verification at a time", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-eval-concurrency-"));
    const records = Array.from({ length: 6 }, (_, round) =>
      answers.map(([response, label], index) =>
        JSON.stringify({
          id: `museum-${round}-${index}`,
          dataset: "museum",
          task: "qa",
          context: source,
          response,
          label,
        }),
      ),
    ).flat();
    await writeFile(join(dir, "records.jsonl"), `${records.join("\n")}\n`);
    const one = await runCliIn(["eval", "--data", "records.jsonl", "--out", "one"], dir);
    const two = await runCliIn(
      ["eval", "--data", "records.jsonl", "--out", "two", "--concurrency", "2"],
      dir,
    );
    expect(one.stderr).toBe("");
    // On fewer than three cores the run says its checks stay in this thread; nothing else is printed.
    expect(two.stderr).toBe(
      availableParallelism() < 3
        ? `veracity eval: note: --concurrency 2 runs the checks in this thread: ${inThisThreadReason(availableParallelism())}\n`
        : "",
    );
    const first = await predictions(join(dir, "one"));
    expect(first).toHaveLength(records.length + 1);
    expect(await predictions(join(dir, "two"))).toEqual(first);
    // The runs judged something: some records were flagged and some passed.
    expect(first.some((line) => line.includes(",hallucinated,") && line.includes(",false,"))).toBe(true);
  }, 120_000);
});
