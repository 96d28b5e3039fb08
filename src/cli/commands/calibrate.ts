import { readFile, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Either } from "effect";
import { type AnswerFeatures, answerFeatureNames } from "../../calibration/combiner/answer-features.js";
import { type CombinerModel, hallucinationProbability } from "../../calibration/combiner/combiner.js";
import { calibrationFileJson } from "../../calibration/file.js";
import {
  type CombinerSample,
  defaultCombinerFitOptions,
  fitCombiner,
} from "../../calibration/fit-combiner.js";
import {
  type CalibrationRun,
  defaultCalibrationSplits,
  fitLayerCalibrations,
} from "../../calibration/fit-layers.js";
import { parseCalibrationPairs } from "../../calibration/pairs-file.js";
import type { CalibrationQuality } from "../../calibration/quality.js";
import { combinerDataPath } from "../../eval/calibration-data.js";
import { fnv1a } from "../../model/fnv1a.js";
import { parseCommandArgs } from "../args.js";
import { type CliCommand, ExitCode, UsageError } from "../command.js";
import { commandProgress } from "../progress.js";

const usage = `veracity calibrate --from <calibration-data.jsonl | eval --out DIR> --out calibration.json
                   [--target-fpr 0.10] [--tune-on SPLIT] [--report-on SPLIT] [--json] [--quiet]

Refits the answer combiner on your labelled answers (combiner-data.jsonl, which eval writes beside the pairs):
its weights, and a fail threshold that keeps the false-alarm rate on your correct answers at or below
--target-fpr (default 0.10) on the tuning split; its false-alarm rate and recall on the report split are
printed. The rules (contradicted or wholly unsupported claims) keep failing answers whatever the threshold.

Also fits Platt scaling per model-backed layer on raw layer scores labeled by an eval run (\`veracity eval ... --out DIR\` or
--calibration-data FILE), on the tuning split, and reports ECE (10 bins), Brier score and log-loss of the raw
and the calibrated scores on the report split, which the fit never saw. Without --tune-on/--report-on the pairs
are cut in two halves by a hash of their record id; with them each pair's own split (from eval) decides, and
pairs without one go by the hash. Use the file with \`--calibration calibration.json\`.

While it works, a terminal's stderr shows which of its four steps it is on (read, fit the layers, fit the
combiner, write); --quiet (-q) turns that off.`;

/** Calibration data is small: one line per layer per record. */
const maxPairsFileBytes = 256 * 1024 * 1024;

const pairsFile = async (from: string): Promise<string> => {
  const info = await stat(from).catch(() => undefined);
  if (info === undefined) throw new UsageError(`--from ${from}: no such file or directory`);
  const file = info.isDirectory() ? join(from, "calibration-data.jsonl") : from;
  const fileInfo = await stat(file).catch(() => undefined);
  if (fileInfo === undefined)
    throw new UsageError(`${file}: no such file (run veracity eval with --out first)`);
  if (fileInfo.size > maxPairsFileBytes)
    throw new UsageError(`${file} is larger than ${maxPairsFileBytes} bytes`);
  return file;
};

const figure = (value: number | undefined): string => (value === undefined ? "-" : value.toFixed(4));
const qualityLine = (quality: CalibrationQuality): string =>
  `ECE ${figure(quality.ece)}  Brier ${figure(quality.brier)}  log-loss ${figure(quality.logLoss)}`;

const textSummary = (run: CalibrationRun, out: string): string =>
  [
    `fitted on split "${run.splits.tuneOn}", measured on split "${run.splits.reportOn}"`,
    ...run.layers.flatMap((layer) => [
      `${layer.layer}: a=${layer.fit.model.a.toFixed(4)} b=${layer.fit.model.b.toFixed(4)} (${layer.tuneCount} tuning / ${layer.before.count} report samples${layer.fit.converged ? "" : ", NOT converged"})`,
      `  before  ${qualityLine(layer.before)}`,
      `  after   ${qualityLine(layer.after)}`,
    ]),
    ...run.skipped.map((entry) => `skipped ${entry.layer}: ${entry.reason}`),
    `wrote ${out}`,
    "",
  ].join("\n");

const readCombinerData = async (
  path: string,
): Promise<(CombinerSample & { id: string; split?: string })[]> => {
  const text = await readFile(path, "utf8").catch(() => undefined);
  if (text === undefined) return [];
  const samples: (CombinerSample & { id: string; split?: string })[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    let raw: {
      id?: unknown;
      dataset?: unknown;
      label?: unknown;
      split?: unknown;
      failsByRule?: unknown;
      features?: Record<string, unknown>;
    };
    try {
      raw = JSON.parse(line);
    } catch {
      throw new UsageError(`${path}:${index + 1}: not JSON`);
    }
    const features = raw.features ?? {};
    const complete = answerFeatureNames.every((name) => typeof features[name] === "number");
    if (typeof raw.id !== "string" || typeof raw.dataset !== "string" || !complete)
      throw new UsageError(
        `${path}:${index + 1}: not a combiner data line of this version (rerun veracity eval)`,
      );
    samples.push({
      id: raw.id,
      group: raw.dataset,
      hallucinated: raw.label === "hallucinated",
      failsByRule: raw.failsByRule === true,
      features: features as unknown as AnswerFeatures,
      ...(typeof raw.split === "string" ? { split: raw.split } : {}),
    });
  }
  return samples;
};

const rates = (model: CombinerModel, samples: readonly CombinerSample[]) => {
  const failed = samples.map(
    (s) => s.failsByRule || hallucinationProbability(model, s.features) >= model.failThreshold,
  );
  const negatives = samples.filter((s) => !s.hallucinated).length;
  const positives = samples.length - negatives;
  return {
    answers: samples.length,
    falseAlarmRate:
      negatives === 0 ? undefined : samples.filter((s, i) => !s.hallucinated && failed[i]).length / negatives,
    recall:
      positives === 0 ? undefined : samples.filter((s, i) => s.hallucinated && failed[i]).length / positives,
  };
};

/** The flags `calibrate` reads beyond --from and --out. */
type CalibrateValues = {
  readonly "tune-on"?: string | undefined;
  readonly "report-on"?: string | undefined;
  readonly "target-fpr"?: string | undefined;
  readonly json?: boolean | undefined;
};

/** Reads, fits and writes; returns what to print. `step` reports each of the four steps as it starts. */
const calibrate = async (
  values: CalibrateValues,
  from: string,
  out: string,
  step: (index: number, message: string) => void,
): Promise<string> => {
  step(1, `reading ${from}`);
  const file = await pairsFile(from);
  const pairs = parseCalibrationPairs(await readFile(file, "utf8"));
  if (Either.isLeft(pairs)) throw new UsageError(`${file}: ${pairs.left.message}`);
  const declared = values["tune-on"] !== undefined || values["report-on"] !== undefined;
  if (declared && (values["tune-on"] === undefined || values["report-on"] === undefined))
    throw new UsageError("--tune-on and --report-on go together");
  const splits = {
    tuneOn: values["tune-on"] ?? defaultCalibrationSplits.tuneOn,
    reportOn: values["report-on"] ?? defaultCalibrationSplits.reportOn,
    declared,
  };
  const targetFpr = values["target-fpr"] === undefined ? 0.1 : Number(values["target-fpr"]);
  if (!(targetFpr >= 0 && targetFpr < 1)) throw new UsageError("--target-fpr takes a number in [0, 1)");
  step(2, `fitting Platt models on ${pairs.right.length.toLocaleString("en-US")} layer scores`);
  const run = fitLayerCalibrations(pairs.right, splits);
  if (Either.isLeft(run)) throw new UsageError(`${file}: ${run.left.message}`);
  const answers = await readCombinerData(combinerDataPath(file));
  const splitOf = (answer: { id: string; split?: string }) =>
    (declared ? answer.split : undefined) ?? (fnv1a(answer.id) % 2 === 0 ? splits.tuneOn : splits.reportOn);
  const tune = answers.filter((answer) => splitOf(answer) === splits.tuneOn);
  const report = answers.filter((answer) => splitOf(answer) === splits.reportOn);
  step(3, `fitting the answer combiner on ${tune.length.toLocaleString("en-US")} answers`);
  const fitted =
    tune.length === 0
      ? undefined
      : fitCombiner(tune, { ...defaultCombinerFitOptions, targetFpr }, `veracity calibrate on ${file}`);
  if (fitted !== undefined && Either.isLeft(fitted)) throw new UsageError(`${file}: ${fitted.left.message}`);
  const combiner =
    fitted === undefined
      ? undefined
      : {
          model: fitted.right,
          quality: { targetFpr, tune: rates(fitted.right, tune), report: rates(fitted.right, report) },
        };
  if (run.right.layers.length === 0 && combiner === undefined)
    throw new UsageError(
      `${file}: nothing to fit: no model-backed layer scores and no combiner data (run veracity eval --out DIR first)`,
    );
  const json = calibrationFileJson(
    run.right,
    { source: file, createdAt: new Date().toISOString() },
    combiner,
  );
  step(4, `writing ${out}`);
  await writeFile(out, json, "utf8");
  const combinerLines =
    combiner === undefined
      ? ["combiner: not refitted (no combiner-data.jsonl beside the pairs)"]
      : [
          `combiner: fail threshold ${combiner.model.failThreshold.toFixed(4)} for a false-alarm rate of at most ${targetFpr} on "${splits.tuneOn}"`,
          `  report split: false alarms ${figure(combiner.quality.report.falseAlarmRate)}, recall ${figure(combiner.quality.report.recall)} (${combiner.quality.report.answers} answers)`,
        ];
  return values.json ? json : `${combinerLines.join("\n")}\n${textSummary(run.right, out)}`;
};

/** `veracity calibrate`: the answer combiner and Platt models per model-backed layer, from an eval run. */
export const calibrateCommand: CliCommand = {
  name: "calibrate",
  summary: "fit per-layer Platt calibration on an eval run and report ECE before/after",
  usage,
  examples: [
    "veracity calibrate --from eval-out --out calibration.json",
    "veracity calibrate --from calibration-data.jsonl --out calibration.json --json",
  ],
  run: async (argv, io) => {
    const { values, positionals } = parseCommandArgs(argv, {
      from: { type: "string" },
      out: { type: "string" },
      "tune-on": { type: "string" },
      "report-on": { type: "string" },
      "target-fpr": { type: "string" },
      json: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help) {
      io.stdout(`${usage}\n`);
      return ExitCode.ok;
    }
    if (values.from === undefined || values.out === undefined || positionals.length > 0)
      throw new UsageError(`calibrate needs --from and --out\n\n${usage}`);
    const from = resolve(io.cwd, values.from);
    const out = resolve(io.cwd, values.out);
    const progress = commandProgress(io, values.quiet);
    // The fits run synchronously: each step is shown as it starts (forced past the rate limit).
    const step = (index: number, message: string) =>
      progress.update?.(`calibrate [${index}/4] ${message}`, { force: true });
    let output: string;
    try {
      output = await calibrate(values, from, out, step);
    } finally {
      progress.done(); // cleared before the summary, which then starts on a clean line
    }
    io.stdout(output);
    return ExitCode.ok;
  },
};
