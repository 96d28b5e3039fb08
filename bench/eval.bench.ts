/**
 * Evaluation harness benchmark (bounded: a few repetitions each, one full offline run).
 *
 *   node --import tsx bench/eval.bench.ts              # everything
 *   node --import tsx bench/eval.bench.ts --no-full    # skip the full offline run over the shared benchmarks
 *
 * Prints medians. The full run uses the real offline verifier over every labelled file of the shared
 * benchmarks (VERACITY_DATASETS_DIR, else the datasets fetched with `veracity datasets fetch`); pin it to one core with `taskset -c 0`.
 */
import { cpus } from "node:os";
import { buildVerifier } from "../src/assembly/build-verifier.js";
import { benchmarkData } from "../src/datasets/benchmark-data.js";
import { readEvalRecords } from "../src/eval/datasets/read-records.js";
import { auroc } from "../src/eval/metrics/auroc.js";
import { groupMetrics } from "../src/eval/metrics/summary.js";
import { tuneThreshold } from "../src/eval/metrics/threshold.js";
import type { RecordPrediction } from "../src/eval/prediction.js";
import { renderHtmlReport } from "../src/eval/report/html-report.js";
import { buildReport } from "../src/eval/report/json-report.js";
import { runEvaluation } from "../src/eval/runner.js";
import { median } from "./libraries/statistics.js";

const time = async (
  name: string,
  repetitions: number,
  body: () => unknown | Promise<unknown>,
): Promise<void> => {
  const samples: number[] = [];
  for (let index = 0; index < repetitions; index += 1) {
    const started = performance.now();
    await body();
    samples.push(performance.now() - started);
  }
  console.log(
    `${name.padEnd(58)} median ${median(samples).toFixed(1).padStart(9)} ms  (${repetitions} runs)`,
  );
};

/** Deterministic pseudo-random numbers (mulberry32). */
const random = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const synthetic = (count: number): RecordPrediction[] => {
  const next = random(42);
  return Array.from({ length: count }, (_, index) => {
    const hallucinated = next() < 0.4;
    const score = Math.min(1, Math.max(0, (hallucinated ? 0.6 : 0.4) + (next() - 0.5) * 0.8));
    return {
      id: `r${index}`,
      dataset: `d${index % 4}`,
      task: "general",
      split: undefined,
      label: hallucinated ? "hallucinated" : "supported",
      response: "The tower was built in 1823 by Leonardo da Vinci.",
      passed: score < 0.5,
      verdict: score < 0.5 ? "pass" : "fail",
      confidence: 1 - score,
      score,
      predicted: score >= 0.5,
      latencyMs: next() * 20,
      failingLayers: [],
      skippedLayers: [],
      layerScores: [{ layer: "grounding", score: 1 - score, passed: score < 0.5 }],
      flaggedClaims:
        score >= 0.5
          ? [
              {
                span: { start: 0, end: 27 },
                verdict: "unsupported",
                text: "The tower was built in 1823",
                issues: [],
              },
            ]
          : [],
      goldSpans: hallucinated ? [{ start: 23, end: 27 }] : [],
      usage: { llmCalls: 0, tokens: 0, cost: 0 },
      error: undefined,
    };
  });
};

console.log(`eval bench: Node ${process.version}, ${cpus().length} cores, ${new Date().toISOString()}`);
const predictions = synthetic(100_000);
const scored = predictions.map((prediction) => ({
  score: prediction.score,
  actual: prediction.label === "hallucinated",
}));
await time("auroc, 100k records", 5, () => auroc(scored));
await time("tuneThreshold, 100k records", 5, () => tuneThreshold(scored));
await time("groupMetrics (all metrics), 100k records", 5, () => groupMetrics(predictions));
const run = { files: ["synthetic"], predictions, malformed: [], tuning: undefined };
await time("buildReport + renderHtmlReport, 100k records", 3, () =>
  renderHtmlReport(buildReport(run), predictions),
);

const { files } = benchmarkData(process.env);
if (files.length === 0) {
  console.log(
    "no labelled data (VERACITY_DATASETS_DIR or fetched datasets): skipping the reader and the full run",
  );
} else {
  await time(`stream + decode ${files.length} benchmark files`, 3, async () => {
    let count = 0;
    for (const file of files) {
      for await (const _ of readEvalRecords(file, {
        onMalformed: "skip",
        maxRecords: 1_000_000,
        reportMalformed: () => {},
      }))
        count += 1;
    }
    return count;
  });
  if (!process.argv.includes("--no-full")) {
    const verifier = await buildVerifier({});
    let records = 0;
    await time("full offline run, every shared benchmark file (1 run)", 1, async () => {
      const result = await runEvaluation({
        files,
        verify: verifier.verify,
        onMalformed: "skip",
        maxRecords: 1_000_000,
        concurrency: 1,
      });
      buildReport(result);
      records = result.predictions.length;
    });
    await verifier.close();
    console.log(`  (${records} records verified, spans and calibration included)`);
  }
}
