import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { Schema } from "effect";
import type { MalformedPolicy } from "../eval/datasets/read-records.js";
import type { SplitPlan } from "../eval/datasets/split.js";
import type { QualityBars } from "../eval/gate.js";
import { LayerName } from "../model/layer-name.js";
import { UsageError } from "./command.js";

/** Everything `veracity eval` was asked to do, validated. */
export interface EvalCliOptions {
  readonly dataFiles: readonly string[];
  /** Arguments of --data that name a registered public dataset (`veracity datasets list`) rather than a file. */
  readonly dataNames: readonly string[];
  readonly goldenFiles: readonly string[];
  readonly layers: readonly LayerName[] | undefined;
  readonly json: boolean;
  readonly outputs: {
    readonly csv?: string;
    readonly html?: string;
    readonly calibrationData?: string;
    readonly json?: string;
    /** The golden-set runs (outcomes and summaries), as JSON. */
    readonly golden?: string;
  };
  readonly onMalformed: MalformedPolicy;
  readonly maxRecords: number;
  readonly concurrency: number;
  readonly splits: SplitPlan | undefined;
  readonly bars: QualityBars;
  readonly verifier: {
    readonly evidence?: string;
    readonly calibration?: string;
    readonly model?: string;
    /** The configuration file (`--config`; `VERACITY_CONFIG` otherwise), as for `veracity check`. */
    readonly config?: string;
    readonly strict: boolean;
  };
  /** `--quiet`: no progress bar (warnings are still printed). */
  readonly quiet: boolean;
  readonly help: boolean;
}

export const evalUsage = `veracity eval --data FILE.jsonl... [--golden SET.yaml...] [options]

Runs the verifier over labelled records (the common JSONL form) and/or golden sets and reports
detection metrics with hallucinated as the positive class.

  --data FILE|NAME...            JSONL files in the common form, or dataset names (veracity datasets list),
                                 fetched and cached on first use (repeatable; extra arguments count too)
  --golden FILE                  golden set, .yaml/.yml or .jsonl (repeatable)
  --layers a,b                   restrict verification to these layers
  --json                         print one JSON object on stdout
  --out DIR                      write report.json, predictions.csv, report.html, calibration-data.jsonl and
                                 combiner-data.jsonl (what veracity calibrate fits on) for labelled data, and
                                 golden.json for golden sets
  --csv FILE | --html FILE | --calibration-data FILE   write one output
  --fail-on-malformed            stop at the first malformed line (default: report it and skip it)
  --max-records N                most records per file (default 200000)
  --concurrency N                verifications in flight (default 1); with the offline layers only (no
                                 model, no --evidence), spread over worker threads: one per core but one,
                                 at most N, when that makes two or more
  --tune-on SPLIT --report-on SPLIT   pick a threshold on one split, report on the other with it
  --min-balanced-accuracy X --max-fpr Y --min-auroc Z   CI gate: exit 1 when a bar is missed
  --evidence DB --calibration FILE --model SPEC --strict   passed to the verifier
  --quiet, -q                    no progress bar (it is shown only when stderr is a terminal; warnings stay)
  --config FILE                  configuration file, YAML or JSON (VERACITY_CONFIG), as for veracity check

Exit codes: 0 ok, 1 a quality bar or golden-set expectation missed, 2 usage or input error.`;

const parseLayers = (value: string | undefined): readonly LayerName[] | undefined => {
  if (value === undefined) return undefined;
  const names = value
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name.length > 0);
  if (names.length === 0) throw new UsageError("--layers needs at least one layer name");
  return names.map((name) => {
    const decoded = Schema.decodeUnknownEither(LayerName)(name);
    if (decoded._tag === "Left") throw new UsageError(`unknown layer "${name}" in --layers`);
    return decoded.right;
  });
};

const parseFraction = (flag: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number) || number < 0 || number > 1) {
    throw new UsageError(`${flag} must be a number between 0 and 1, got "${value}"`);
  }
  return number;
};

const parseCount = (flag: string, value: string | undefined, fallback: number, max: number): number => {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > max) {
    throw new UsageError(`${flag} must be an integer from 1 to ${max}, got "${value}"`);
  }
  return number;
};

/** Parses and validates the arguments of `veracity eval`; relative paths are resolved against `cwd`. */
export const parseEvalArgs = (
  argv: readonly string[],
  cwd: string,
  isDatasetName: (name: string) => boolean = () => false,
): EvalCliOptions => {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  const path = (file: string) => (isAbsolute(file) ? file : resolve(cwd, file));
  const optionalPath = (file: string | undefined) => (file === undefined ? undefined : path(file));
  const dataArguments = [...(values.data ?? []), ...positionals];
  // An existing file wins over a dataset of the same name.
  const namesDataset = (argument: string) => isDatasetName(argument) && !existsSync(path(argument));
  const dataNames = dataArguments.filter(namesDataset);
  const dataFiles = dataArguments.filter((argument) => !namesDataset(argument)).map(path);
  const goldenFiles = (values.golden ?? []).map(path);
  const help = values.help === true;
  if (!help && dataFiles.length === 0 && dataNames.length === 0 && goldenFiles.length === 0)
    throw new UsageError("give --data FILE.jsonl or --golden SET.yaml");
  if ((values["tune-on"] === undefined) !== (values["report-on"] === undefined)) {
    throw new UsageError("--tune-on and --report-on go together");
  }
  if (values["tune-on"] !== undefined && values["tune-on"] === values["report-on"]) {
    throw new UsageError(
      "--tune-on and --report-on must name different splits: never pick a threshold on the data you report",
    );
  }
  const out = optionalPath(values.out);
  const inOut = (name: string) => (out === undefined ? undefined : join(out, name));
  const outputs = Object.fromEntries(
    Object.entries({
      csv: optionalPath(values.csv) ?? inOut("predictions.csv"),
      html: optionalPath(values.html) ?? inOut("report.html"),
      calibrationData: optionalPath(values["calibration-data"]) ?? inOut("calibration-data.jsonl"),
      json: inOut("report.json"),
      golden: inOut("golden.json"),
    }).filter(([, value]) => value !== undefined),
  ) as EvalCliOptions["outputs"];
  const bars: QualityBars = Object.fromEntries(
    Object.entries({
      minBalancedAccuracy: parseFraction("--min-balanced-accuracy", values["min-balanced-accuracy"]),
      maxFpr: parseFraction("--max-fpr", values["max-fpr"]),
      minAuroc: parseFraction("--min-auroc", values["min-auroc"]),
    }).filter(([, value]) => value !== undefined),
  );
  return {
    dataFiles,
    dataNames,
    goldenFiles,
    layers: parseLayers(values.layers),
    json: values.json === true,
    outputs,
    onMalformed: values["fail-on-malformed"] === true ? "fail" : "skip",
    maxRecords: parseCount("--max-records", values["max-records"], 200_000, 10_000_000),
    concurrency: parseCount("--concurrency", values.concurrency, 1, 64),
    splits:
      values["tune-on"] !== undefined && values["report-on"] !== undefined
        ? { tuneOn: values["tune-on"], reportOn: values["report-on"] }
        : undefined,
    bars,
    verifier: {
      ...(values.evidence !== undefined ? { evidence: path(values.evidence) } : {}),
      ...(values.calibration !== undefined ? { calibration: path(values.calibration) } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(values.config !== undefined ? { config: path(values.config) } : {}),
      strict: values.strict === true,
    },
    quiet: values.quiet === true,
    help,
  };
};

const parse = (argv: readonly string[]) =>
  parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      data: { type: "string", multiple: true },
      golden: { type: "string", multiple: true },
      layers: { type: "string" },
      json: { type: "boolean" },
      out: { type: "string" },
      csv: { type: "string" },
      html: { type: "string" },
      "calibration-data": { type: "string" },
      "fail-on-malformed": { type: "boolean" },
      "max-records": { type: "string" },
      concurrency: { type: "string" },
      "tune-on": { type: "string" },
      "report-on": { type: "string" },
      "min-balanced-accuracy": { type: "string" },
      "max-fpr": { type: "string" },
      "min-auroc": { type: "string" },
      evidence: { type: "string" },
      calibration: { type: "string" },
      model: { type: "string" },
      config: { type: "string" },
      strict: { type: "boolean" },
      quiet: { type: "boolean", short: "q" },
      help: { type: "boolean", short: "h" },
    },
  });
