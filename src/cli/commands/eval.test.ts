import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { fakeClaim, fakeVerificationResult } from "../../eval/fake-verification-result.js";
import type { VerificationRequest } from "../../model/request.js";
import { capturingIO } from "../testing.js";
import { type EvalVerifierOptions, makeEvalCommand } from "./eval.js";

let dir: string;
let data: string;
let gateData: string;

const record = (id: string, label: string, confidence: number) =>
  JSON.stringify({
    id,
    dataset: "demo",
    task: "qa",
    context: "ctx",
    question: null,
    response: `conf:${confidence}`,
    label,
    spans: [],
    meta: {},
  });

/** Two hallucinated and two supported records; only the confidence of the last supported one varies. */
const labelled = (s2Confidence: number) => [
  record("h1", "hallucinated", 0.1),
  record("h2", "hallucinated", 0.6),
  record("s1", "supported", 0.8),
  record("s2", "supported", s2Confidence),
];

/** Writes `lines` to `name` in the test directory and returns its path. */
const writeLines = async (name: string, lines: readonly string[]) => {
  const file = join(dir, name);
  await writeFile(file, lines.join("\n"));
  return file;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "veracity-eval-cli-"));
  // Fake verdicts pass when confidence >= 0.5. h1 TP, h2 FN, s1 TN, s2 TN:
  // recall 1/2, specificity 1 -> balanced accuracy 0.75, FPR 0;
  // scores h {0.9, 0.4} vs s {0.2, 0.3}: 0.9 beats both, 0.4 beats both -> AUROC 1
  data = await writeLines("demo.jsonl", [...labelled(0.7), "oops"]);
  gateData = await writeLines("gate.jsonl", labelled(0.3));
});

const harness = () => {
  const { io, out, err } = capturingIO(dir);
  const created: EvalVerifierOptions[] = [];
  const requests: VerificationRequest[] = [];
  let closed = 0;
  const command = makeEvalCommand(async (options) => {
    created.push(options);
    return {
      verify: async (request) => {
        requests.push(request);
        return fakeVerificationResult({ overallConfidence: Number(request.text.slice(5)) });
      },
      close: async () => {
        closed += 1;
      },
    };
  });
  return { command, io, out, err, created, requests, closed: () => closed };
};

describe("veracity eval", () => {
  it("prints the foundation's JSON shape per dataset and overall", async () => {
    const { command, io, out, err, closed } = harness();
    const code = await command.run(["--data", "demo.jsonl", "--json"], io);
    expect(code).toBe(0);
    const report = JSON.parse(out.join(""));
    expect(Object.keys(report.datasets)).toEqual(["demo"]);
    expect(report.overall).toMatchObject({
      n: 4,
      tp: 1,
      fp: 0,
      tn: 2,
      fn: 1,
      precision: 1,
      recall: 0.5,
      f1: 2 / 3,
      fpr: 0,
      balancedAccuracy: 0.75,
      auroc: 1,
    });
    expect(err.join("")).toMatch(/demo\.jsonl:5: malformed line skipped/);
    expect(closed()).toBe(1);
  });

  it.each([
    ["all bars met", ["--min-balanced-accuracy", "0.7", "--max-fpr", "0.05", "--min-auroc", "0.9"], 0, []],
    [
      "balanced accuracy below its bar",
      ["--min-balanced-accuracy", "0.8"],
      1,
      ["balanced accuracy 0.7500 is below the minimum 0.8000"],
    ],
    ["FPR at its bar (0 <= 0)", ["--max-fpr", "0"], 0, []],
  ])("gate: %s", async (_name, bars, expectedCode, misses) => {
    const { command, io, err } = harness();
    const code = await command.run(["--data", data, ...bars], io);
    expect(code).toBe(expectedCode);
    for (const miss of misses) expect(err.join("")).toContain(`quality gate: ${miss}`);
    if (expectedCode === 0) expect(err.join("")).not.toContain("quality gate:");
  });

  // gate.jsonl: h1 TP (0.1), h2 FN (0.6), s1 TN (0.8), s2 FP (0.3):
  // recall 1/2, specificity 1/2 -> balanced accuracy 0.5; FPR 1/2;
  // scores h {0.9, 0.4} vs s {0.2, 0.7}: 0.9 beats both, 0.4 beats 0.2 -> AUROC 3/4
  it.each([
    [
      "FPR above its bar",
      ["--max-fpr", "0.4"],
      1,
      ["false positive rate 0.5000 is above the maximum 0.4000"],
    ],
    [
      "every bar missed, each one printed",
      ["--min-balanced-accuracy", "0.6", "--max-fpr", "0.25", "--min-auroc", "0.8"],
      1,
      [
        "balanced accuracy 0.5000 is below the minimum 0.6000",
        "false positive rate 0.5000 is above the maximum 0.2500",
        "AUROC 0.7500 is below the minimum 0.8000",
      ],
    ],
    [
      "every metric exactly at its bar",
      ["--min-balanced-accuracy", "0.5", "--max-fpr", "0.5", "--min-auroc", "0.75"],
      0,
      [],
    ],
  ])("gate on a run with false alarms: %s", async (_name, bars, expectedCode, misses) => {
    const { command, io, err } = harness();
    const code = await command.run(["--data", gateData, ...bars], io);
    expect(code).toBe(expectedCode);
    const printed = err
      .join("")
      .split("\n")
      .filter((line) => line.startsWith("quality gate:"));
    expect(printed).toEqual(misses.map((miss) => `quality gate: ${miss}`));
  });

  it("fails the run at a malformed line with --fail-on-malformed (exit 2, line named)", async () => {
    const { command, io, err } = harness();
    expect(await command.run(["--data", data, "--fail-on-malformed"], io)).toBe(2);
    expect(err.join("")).toMatch(/demo\.jsonl:5:/);
    // The line stopped the run: it must not be reported as skipped.
    expect(err.join("")).not.toMatch(/skipped/);
  });

  it("passes layers to every request and verifier flags to the factory", async () => {
    const { command, io, created, requests } = harness();
    await command.run(
      [
        "--data",
        data,
        "--layers",
        "grounding,numbers",
        "--strict",
        "--model",
        "openai:x",
        "--evidence",
        "db",
        "--calibration",
        "cal.json",
        "--concurrency",
        "3",
      ],
      io,
    );
    expect(created[0]).toEqual({
      layers: ["grounding", "numbers"],
      strict: true,
      model: "openai:x",
      evidence: join(dir, "db"),
      calibration: join(dir, "cal.json"),
      concurrency: 3,
    });
    expect(requests.every((request) => request.layers?.join() === "grounding,numbers")).toBe(true);
  });

  it("writes CSV, HTML, JSON and calibration data under --out", async () => {
    const { command, io } = harness();
    expect(await command.run(["--data", data, "--out", "run1"], io)).toBe(0);
    const csv = await readFile(join(dir, "run1", "predictions.csv"), "utf8");
    expect(csv.trimEnd().split("\n")).toHaveLength(5);
    expect(await readFile(join(dir, "run1", "report.html"), "utf8")).toContain('<svg id="roc-curve"');
    expect(JSON.parse(await readFile(join(dir, "run1", "report.json"), "utf8")).overall.n).toBe(4);
    // the fake results have no layers, so there are no per-layer pairs
    expect(await readFile(join(dir, "run1", "calibration-data.jsonl"), "utf8")).toBe("");
  });

  it.each([
    ["a verifier that flags the fabricated year", (text: string) => !text.includes("1823"), 0],
    ["a verifier that passes everything", () => true, 1],
  ])("runs the example golden set with %s", async (_name, passes, expectedCode) => {
    const golden = resolve(import.meta.dirname, "../../../examples/golden/spec-cases.yaml");
    const { io, out } = harness();
    const command = makeEvalCommand(async () => ({
      verify: async (request) =>
        fakeVerificationResult({
          overallConfidence: passes(request.text) ? 0.9 : 0.1,
          riskLevel: request.riskOverride ?? "low",
          claims: passes(request.text) ? [] : [fakeClaim(request.text, 0, "contradicted")],
        }),
      close: async () => {},
    }));
    expect(await command.run(["--golden", golden], io)).toBe(expectedCode);
    expect(out.join("")).toMatch(expectedCode === 0 ? /ok {3}fabricated-claim/ : /FAIL fabricated-claim/);
  });

  it("prints its usage with --help and exits 0 without creating a verifier", async () => {
    const { command, io, out, created } = harness();
    expect(await command.run(["--help"], io)).toBe(0);
    expect(out.join("")).toContain("--min-balanced-accuracy");
    expect(created).toEqual([]);
  });

  it.each([
    [["--data"], /argument missing|requires|value/i],
    [[], /give --data/],
    [["--data", "x.jsonl", "--layers", "telepathy"], /unknown layer "telepathy"/],
    [["--data", "x.jsonl", "--min-auroc", "1.5"], /between 0 and 1/],
    [["--data", "x.jsonl", "--tune-on", "dev"], /go together/],
    [["--data", "x.jsonl", "--tune-on", "dev", "--report-on", "dev"], /different splits/],
    [["--data", "missing.jsonl"], /cannot read/],
  ])("exits 2 with a clear message for %j", async (argv, message) => {
    const { command, io, err } = harness();
    expect(await command.run(argv, io)).toBe(2);
    expect(err.join("")).toMatch(message);
  });
});
