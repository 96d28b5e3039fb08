import { Either } from "effect";
import { buildVerifier } from "../src/assembly/build-verifier.js";
import { defaultCalibrationSplits, fitLayerCalibrations } from "../src/calibration/fit-layers.js";
import { fitPlatt } from "../src/calibration/fit-platt.js";
import type { CalibrationQuality } from "../src/calibration/quality.js";
import { benchmarkData, benchmarkFile } from "../src/datasets/benchmark-data.js";
import { calibrationPairs } from "../src/eval/calibration-data.js";
import { runEvaluation } from "../src/eval/runner.js";
import { median } from "./libraries/statistics.js";

const maxRecordsFlag = process.argv.indexOf("--max-records");
const maxRecords = maxRecordsFlag === -1 ? 4000 : Number(process.argv[maxRecordsFlag + 1]);
const dir = benchmarkData(process.env).source;
const files = ["begin.jsonl", "summedits.jsonl"]
  .map((name) => benchmarkFile(process.env, name))
  .filter((file): file is string => file !== undefined);
if (files.length === 0) {
  console.log(`no begin.jsonl or summedits.jsonl in ${dir}: nothing to measure`);
  process.exit(0);
}

const figure = (value: number | undefined) => (value === undefined ? "-" : value.toFixed(4));
const row = (quality: CalibrationQuality) =>
  `ECE ${figure(quality.ece)}  Brier ${figure(quality.brier)}  log-loss ${figure(quality.logLoss)}`;

console.log(
  `calibration bench: node ${process.version}, ${new Date().toISOString()}, max ${maxRecords} records per file`,
);
const verifier = await buildVerifier({}, {}, {});
try {
  for (const file of files) {
    const started = performance.now();
    const run = await runEvaluation({
      files: [file],
      verify: verifier.verify,
      layers: ["grounding"],
      onMalformed: "skip",
      maxRecords,
      concurrency: 1,
    });
    const pairs = calibrationPairs(run.predictions);
    const evalMs = performance.now() - started;
    const fitted = fitLayerCalibrations(pairs, defaultCalibrationSplits);
    if (Either.isLeft(fitted)) {
      console.log(`${file}: ${fitted.left.message}`);
      continue;
    }
    for (const layer of fitted.right.layers) {
      console.log(
        `\n${file.split("/").at(-1)} / ${layer.layer}: ${run.predictions.length} records, eval ${(evalMs / 1000).toFixed(1)} s`,
      );
      console.log(
        `  fitted on ${layer.tuneCount} (hash half "tune"), measured on ${layer.before.count} (half "report")`,
      );
      console.log(
        `  a=${layer.fit.model.a.toFixed(4)} b=${layer.fit.model.b.toFixed(4)} iterations ${layer.fit.iterations} converged ${layer.fit.converged}`,
      );
      console.log(`  raw         ${row(layer.before)}`);
      console.log(`  calibrated  ${row(layer.after)}`);
      const samples = pairs
        .filter((pair) => pair.layer === layer.layer)
        .map((pair) => ({ score: pair.score, supported: pair.label === "supported" }));
      const times: number[] = [];
      for (let repetition = 0; repetition < 7; repetition++) {
        const fitStarted = performance.now();
        fitPlatt(samples);
        times.push(performance.now() - fitStarted);
      }
      console.log(`  one fit over ${samples.length} pairs: median ${median(times).toFixed(2)} ms (7 runs)`);
    }
  }
} finally {
  await verifier.close();
}
