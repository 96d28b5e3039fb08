import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import { fakeClaim, fakeLayerResult, fakeVerificationResult } from "./fake-verification-result.js";
import { groupMetrics } from "./metrics/summary.js";
import { buildReport } from "./report/json-report.js";
import { runEvaluation } from "./runner.js";

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ task: "qa", context: null, question: null, spans: [], meta: {}, ...fields });

/** Scripted verdicts keyed by response text; "boom" throws like an outage. */
const scripted: Record<string, VerificationResult> = {
  "aaaaa bbbb": fakeVerificationResult({
    overallConfidence: 0.1,
    passed: false,
    totalLatencyMs: 10,
    costIncurred: 0.01,
    layersRun: [
      fakeLayerResult({
        layer: "grounding",
        score: 0.1,
        passed: false,
        details: { llmCalls: 2, tokens: 100 },
      }),
    ],
    claims: [fakeClaim("aaaaa bbbb", 0, "unsupported")],
  }),
  h2: fakeVerificationResult({ overallConfidence: 0.6, passed: true, totalLatencyMs: 20 }),
  s1: fakeVerificationResult({ overallConfidence: 0.8, passed: true, totalLatencyMs: 30 }),
  s2: fakeVerificationResult({ overallConfidence: 0.3, passed: false, totalLatencyMs: 40 }),
  s3: fakeVerificationResult({ overallConfidence: 0.9, passed: true, totalLatencyMs: 50 }),
};

const makeVerifier = () => {
  const requests: VerificationRequest[] = [];
  const verify = async (request: VerificationRequest) => {
    requests.push(request);
    if (request.text === "boom") throw new Error("model unreachable");
    const result =
      scripted[request.text] ??
      (request.text.startsWith("conf:")
        ? fakeVerificationResult({ overallConfidence: Number(request.text.slice(5)), passed: true })
        : undefined);
    if (result === undefined) throw new Error(`no script for ${request.text}`);
    return result;
  };
  return { verify, requests };
};

/** A clock that advances 5 ms per reading: every measured latency is 5. */
const steppingClock = () => {
  let time = 0;
  return () => {
    time += 5;
    return time;
  };
};

let alpha: string;
let beta: string;
let splitFile: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), "veracity-eval-run-"));
  alpha = join(dir, "alpha.jsonl");
  beta = join(dir, "beta.jsonl");
  splitFile = join(dir, "splits.jsonl");
  await writeFile(
    alpha,
    [
      line({
        id: "h1",
        dataset: "alpha",
        response: "aaaaa bbbb",
        label: "hallucinated",
        context: "the source",
        question: "q?",
        spans: [{ start: 0, end: 5, text: "aaaaa" }],
      }),
      line({ id: "h2", dataset: "alpha", response: "h2", label: "hallucinated" }),
      line({ id: "s1", dataset: "alpha", response: "s1", label: "supported" }),
    ].join("\n"),
  );
  await writeFile(
    beta,
    [
      line({ id: "h3", dataset: "beta", task: "summarization", response: "boom", label: "hallucinated" }),
      line({ id: "s2", dataset: "beta", task: "summarization", response: "s2", label: "supported" }),
      line({ id: "s3", dataset: "beta", task: "summarization", response: "s3", label: "supported" }),
    ].join("\n"),
  );
  const split = (id: string, split: string, confidence: number, label: string) =>
    line({ id, dataset: "split", response: `conf:${confidence}`, label, meta: { split } });
  await writeFile(
    splitFile,
    [
      // dev: hallucinated scores 0.8, 0.6; supported 0.5, 0.1 -> threshold 0.6 separates them perfectly
      split("d1", "dev", 0.2, "hallucinated"),
      split("d2", "dev", 0.4, "hallucinated"),
      split("d3", "dev", 0.5, "supported"),
      split("d4", "dev", 0.9, "supported"),
      // test: hallucinated 0.65 (flagged), 0.55 (missed); supported 0.62 (false alarm), 0.3 (clean)
      split("t1", "test", 0.35, "hallucinated"),
      split("t2", "test", 0.45, "hallucinated"),
      split("t3", "test", 0.38, "supported"),
      split("t4", "test", 0.7, "supported"),
      // neither split: never verified
      split("e1", "evaluation", 0.5, "supported"),
    ].join("\n"),
  );
});

describe("runEvaluation", () => {
  it("maps each record to a request: response as text, context as the only source, question, layers", async () => {
    const { verify, requests } = makeVerifier();
    await runEvaluation({
      files: [alpha],
      verify,
      layers: ["grounding"],
      onMalformed: "fail",
      maxRecords: 100,
      concurrency: 1,
    });
    expect(requests[0]).toEqual({
      text: "aaaaa bbbb",
      sources: ["the source"],
      question: "q?",
      layers: ["grounding"],
    });
    expect(requests[1]).toEqual({ text: "h2", sources: [], layers: ["grounding"] });
  });

  it("computes every overall metric as derived by hand", async () => {
    const { verify } = makeVerifier();
    const run = await runEvaluation({
      files: [alpha, beta],
      verify,
      onMalformed: "fail",
      maxRecords: 100,
      concurrency: 2,
      now: steppingClock(),
    });
    const metrics = groupMetrics(run.predictions);
    // h1 TP (passed false), h2 FN (passed true), h3 TP (error: flagged, score 1), s1 TN, s2 FP, s3 TN
    expect(metrics).toMatchObject({
      n: 6,
      tp: 2,
      fn: 1,
      fp: 1,
      tn: 2,
      errors: 1,
      positives: 3,
      negatives: 3,
    });
    expect(metrics.precision).toBeCloseTo(2 / 3, 12);
    expect(metrics.recall).toBeCloseTo(2 / 3, 12);
    expect(metrics.fpr).toBeCloseTo(1 / 3, 12);
    expect(metrics.balancedAccuracy).toBeCloseTo(2 / 3, 12);
    expect(metrics.hallucinationRate).toBeCloseTo(3 / 6, 12);
    // scores: positives {0.9, 0.4, 1}, negatives {0.2, 0.7, 0.1}: 0.9 and 1 beat all 3, 0.4 beats 2 -> 8/9
    expect(metrics.auroc).toBeCloseTo(8 / 9, 12);
    // calibration over the 5 verified records (confidence, supported):
    // h1 (0.1,0) h2 (0.6,0) s1 (0.8,1) s2 (0.3,1) s3 (0.9,1), each alone in its bin
    // ECE = (0.1 + 0.6 + 0.2 + 0.7 + 0.1)/5 = 0.34; Brier = (0.01+0.36+0.04+0.49+0.01)/5 = 0.182
    expect(metrics.calibration.ece).toBeCloseTo(0.34, 12);
    expect(metrics.calibration.brier).toBeCloseTo(0.182, 12);
    // latencies: results' totalLatencyMs 10, 20, 30, 40, 50 and the failed record's measured 5
    // sorted 5,10,20,30,40,50: p50 = 3rd = 20, p95 = 6th = 50
    expect(metrics.latency).toEqual({ p50Ms: 20, p95Ms: 50 });
    expect(metrics.usage).toEqual({ llmCalls: 2, tokens: 100, cost: 0.01 });
    // h1: flagged claim [0,10), gold [0,5): precision 5/10, recall 5/5
    expect(metrics.spans).toEqual({ records: 1, precision: 0.5, recall: 1, f1: 10 / 15 });
  });

  it("keeps input order, records the error and reports per dataset and per task", async () => {
    const { verify } = makeVerifier();
    const run = await runEvaluation({
      files: [alpha, beta],
      verify,
      onMalformed: "fail",
      maxRecords: 100,
      concurrency: 3,
    });
    expect(run.predictions.map((prediction) => prediction.id)).toEqual(["h1", "h2", "s1", "h3", "s2", "s3"]);
    expect(run.predictions[3]).toMatchObject({
      predicted: true,
      score: 1,
      passed: undefined,
      error: "Error: model unreachable",
    });
    const report = buildReport(run);
    expect(Object.keys(report.datasets)).toEqual(["alpha", "beta"]);
    expect(Object.keys(report.tasks)).toEqual(["qa", "summarization"]);
    // beta: h3 TP, s2 FP, s3 TN; no negatives missed -> recall 1, FPR 1/2
    expect(report.datasets.beta).toMatchObject({ tp: 1, fp: 1, tn: 1, fn: 0, recall: 1, fpr: 0.5 });
    expect(report.decision).toEqual({ rule: "verifier-verdict" });
  });

  it("tunes a threshold on one split and applies it unchanged to the other", async () => {
    const { verify, requests } = makeVerifier();
    const run = await runEvaluation({
      files: [splitFile],
      verify,
      onMalformed: "fail",
      maxRecords: 100,
      concurrency: 1,
      splits: { tuneOn: "dev", reportOn: "test" },
    });
    expect(requests).toHaveLength(8);
    expect(run.tuning).toMatchObject({
      tuneOn: "dev",
      reportOn: "test",
      tunedOnRecords: 4,
      excludedRecords: 1,
      balancedAccuracy: 1,
    });
    expect(run.tuning?.threshold).toBeCloseTo(0.6, 12);
    expect(run.predictions.map((prediction) => prediction.id)).toEqual(["t1", "t2", "t3", "t4"]);
    // with the dev threshold 0.6: t1 (0.65) TP, t2 (0.55) FN, t3 (0.62) FP, t4 (0.3) TN
    expect(groupMetrics(run.predictions)).toMatchObject({ tp: 1, fn: 1, fp: 1, tn: 1 });
  });

  it("fails with an InputError when the tuning split lacks a class", async () => {
    const { verify } = makeVerifier();
    await expect(
      runEvaluation({
        files: [alpha],
        verify,
        onMalformed: "fail",
        maxRecords: 100,
        concurrency: 1,
        splits: { tuneOn: "nope", reportOn: "other" },
      }),
    ).rejects.toMatchObject({ _tag: "InputError", code: "untunable-split" });
  });

  it("refuses a run without data files", async () => {
    const { verify } = makeVerifier();
    await expect(
      runEvaluation({ files: [], verify, onMalformed: "fail", maxRecords: 1, concurrency: 1 }),
    ).rejects.toMatchObject({ code: "no-data" });
  });
});
