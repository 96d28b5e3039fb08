import { readFile, stat, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { Either } from "effect";
import { calibrationFileJson } from "../../calibration/file.js";
import {
  type CalibrationRun,
  defaultCalibrationSplits,
  fitLayerCalibrations,
} from "../../calibration/fit-layers.js";
import { parseCalibrationPairs } from "../../calibration/pairs-file.js";
import type { CalibrationQuality } from "../../calibration/quality.js";
import { parseCommandArgs } from "../args.js";
import { type CliCommand, ExitCode, UsageError } from "../command.js";

const usage = `veracity calibrate --from <calibration-data.jsonl | eval --out DIR> --out calibration.json
                   [--tune-on SPLIT] [--report-on SPLIT] [--json]

Fits Platt scaling per layer on raw layer scores labeled by an eval run (\`veracity eval ... --out DIR\` or
--calibration-data FILE), on the tuning split, and reports ECE (10 bins), Brier score and log-loss of the raw
and the calibrated scores on the report split, which the fit never saw. Without --tune-on/--report-on the pairs
are cut in two halves by a hash of their record id; with them each pair's own split (from eval) decides, and
pairs without one go by the hash. Use the file with \`--calibration calibration.json\`.`;

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

/** `veracity calibrate`: Platt models per layer from an eval run's labeled raw scores. */
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
      json: { type: "boolean" },
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
    const run = fitLayerCalibrations(pairs.right, splits);
    if (Either.isLeft(run)) throw new UsageError(`${file}: ${run.left.message}`);
    const json = calibrationFileJson(run.right, { source: file, createdAt: new Date().toISOString() });
    await writeFile(out, json, "utf8");
    io.stdout(values.json ? json : textSummary(run.right, out));
    return ExitCode.ok;
  },
};
