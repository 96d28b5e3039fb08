import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCliIn } from "../../cli/testing.js";

// Three answers, each judged by the real offline verifier: one invents a figure its source does not hold,
// one is faithful but came from a run that recorded an execution error, one is faithful and clean.
const goldenSet = `name: rates
cases:
  - id: invented-figure
    text: "The bridge opened to traffic in 1931."
    sources: ["The bridge opened to traffic in 1964 after six years of construction."]
    riskOverride: high
    expected: { passed: false }
  - id: faithful-but-errored
    text: "The bridge opened to traffic in 1964."
    sources: ["The bridge opened to traffic in 1964 after six years of construction."]
    riskOverride: low
    signals: { error_detected: true }
    expected: { passed: true, answerValid: false }
  - id: faithful
    text: "The bridge opened to traffic in 1964."
    sources: ["The bridge opened to traffic in 1964 after six years of construction."]
    riskOverride: low
    expected: { passed: true }
`;

const runEval = (argv: readonly string[], cwd: string) => runCliIn(["eval", ...argv], cwd);

describe("veracity eval --golden --out", () => {
  it("writes the golden results to golden.json, with hallucination, execution-error and ambiguity rates apart", async () => {
    const dir = await mkdtemp(join(tmpdir(), "veracity-golden-out-"));
    await writeFile(join(dir, "rates.yaml"), goldenSet);
    const { code, stdout, stderr } = await runEval(["--golden", "rates.yaml", "--out", "results"], dir);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    const written = JSON.parse(await readFile(join(dir, "results", "golden.json"), "utf8"));
    const [run] = written.golden;
    expect(run.name).toBe("rates");
    expect(run.outcomes.map((outcome: { id: string; met: boolean }) => [outcome.id, outcome.met])).toEqual([
      ["invented-figure", true],
      ["faithful-but-errored", true],
      ["faithful", true],
    ]);
    // Only the invented figure is a hallucination; the errored run is counted as an execution error.
    expect(run.summary).toMatchObject({
      cases: 3,
      hallucinationRate: 1 / 3,
      executionErrorRate: 1 / 3,
      ambiguityRate: 0,
      answerAccuracy: 1 / 3,
    });
    expect(stdout).toMatch(/hallucination rate 0\.333, execution-error rate 0\.333, ambiguity rate 0\.000/);
  });
});
