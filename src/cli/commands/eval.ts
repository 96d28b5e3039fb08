import { mkdir, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import { buildVerifier } from "../../assembly/build-verifier.js";
import { datasets } from "../../datasets/registry.js";
import { labelledFilesOf } from "../../datasets/resolve-names.js";
import {
  calibrationPairs,
  calibrationPairsToJsonl,
  combinerDataPath,
  combinerDataToJsonl,
} from "../../eval/calibration-data.js";
import { checkGate, type GateOutcome } from "../../eval/gate.js";
import { loadGoldenSet } from "../../eval/golden/load-golden-set.js";
import { type GoldenRun, runGoldenSet } from "../../eval/golden/run-golden-set.js";
import { predictionsToCsv } from "../../eval/report/csv-report.js";
import { renderHtmlReport } from "../../eval/report/html-report.js";
import { buildReport, type EvalReport, reportToJson } from "../../eval/report/json-report.js";
import { goldenTextReport, textReport } from "../../eval/report/text-report.js";
import {
  type EvalRun,
  type RecordVerifyFunction,
  runEvaluation,
  type VerifyFunction,
} from "../../eval/runner.js";
import { createWorkerPoolVerifier } from "../../facade/worker-pool/index.js";
import type { LayerName } from "../../model/layer-name.js";
import { type CliCommand, type CliIO, ExitCode, UsageError } from "../command.js";
import { fetchOptionsOf } from "../datasets-settings.js";
import { type EvalCliOptions, evalUsage, parseEvalArgs } from "../eval-options.js";
import { commandProgress, countBar, countLines } from "../progress.js";

const isDatasetName = (name: string): boolean => datasets.some((spec) => spec.name === name.toLowerCase());

/** What the eval command passes on to the verifier it creates. */
export interface EvalVerifierOptions {
  readonly layers?: readonly LayerName[];
  readonly evidence?: string;
  readonly calibration?: string;
  readonly model?: string;
  /** The configuration file (`--config`). */
  readonly config?: string;
  readonly strict: boolean;
  /** Verifications in flight (`--concurrency`): with the offline layers only, spread over worker threads. */
  readonly concurrency: number;
}

export interface EvalVerifier {
  readonly verify: VerifyFunction;
  /**
   * What verifies the labelled records, when not `verify`: a pool of worker threads answers them as lean
   * results (`leanResult`), since a record's prediction reads no evidence passage, and half as much crosses back
   * to this thread. Golden sets, whose expectations may read any part of a result, keep `verify`.
   */
  readonly verifyRecord?: RecordVerifyFunction;
  readonly close: () => Promise<void>;
  /**
   * Verifications to keep in flight when more than `--concurrency` keeps it busy: a pool of worker threads
   * idles between one call's answer and the next call unless each worker has calls waiting.
   */
  readonly inFlight?: number;
  /**
   * Why the checks run in this thread though `--concurrency` asked for more than one at a time, when more in
   * flight then gains nothing (offline checks are synchronous work): said to the user once, on stderr.
   */
  readonly inThisThread?: string;
}

export type EvalVerifierFactory = (options: EvalVerifierOptions) => Promise<EvalVerifier>;

const isTagged = (error: unknown, ...tags: readonly string[]): error is Error =>
  error instanceof Error && "_tag" in error && tags.includes(String((error as { _tag: unknown })._tag));

const writeOutput = async (path: string, content: string): Promise<void> => {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content, "utf8");
};

const writeRunOutputs = async (options: EvalCliOptions, run: EvalRun, report: EvalReport): Promise<void> => {
  const { csv, html, calibrationData, json } = options.outputs;
  if (csv !== undefined) await writeOutput(csv, predictionsToCsv(run.predictions));
  if (html !== undefined) await writeOutput(html, renderHtmlReport(report, run.predictions));
  if (calibrationData !== undefined) {
    await writeOutput(calibrationData, calibrationPairsToJsonl(calibrationPairs(run.predictions)));
    // The answers' combiner features go beside the pairs, where `veracity calibrate --from` looks for them.
    await writeOutput(combinerDataPath(calibrationData), combinerDataToJsonl(run.predictions));
  }
  if (json !== undefined) await writeOutput(json, reportToJson(report));
};

/** Keeps absent figures (an empty denominator) visible as null in JSON output. */
const nullForUndefined = (_key: string, value: unknown) => (value === undefined ? null : value);

const hasBars = (options: EvalCliOptions): boolean => Object.keys(options.bars).length > 0;

/** The data files with each dataset name replaced by its cached JSONL file (fetched first when needed). */
const dataFilesOf = async (options: EvalCliOptions, io: CliIO): Promise<readonly string[]> => {
  if (options.dataNames.length === 0) return options.dataFiles;
  const progress = commandProgress(io, options.quiet);
  try {
    const named = await labelledFilesOf(
      datasets,
      options.dataNames,
      fetchOptionsOf(io.env, {}, progress.update),
    );
    return [...options.dataFiles, ...named];
  } finally {
    progress.done();
  }
};

const evaluate = async (
  options: EvalCliOptions,
  { verify, verifyRecord = verify }: Pick<EvalVerifier, "verify" | "verifyRecord">,
  io: CliIO,
): Promise<number> => {
  let report: EvalReport | undefined;
  let gate: GateOutcome | undefined;
  const dataFiles = await dataFilesOf(options, io);
  if (dataFiles.length > 0) {
    const progress = commandProgress(io, options.quiet);
    // The bar's total: the files' non-blank lines (malformed ones included), counted only when it is shown.
    const total =
      progress.update === undefined
        ? undefined
        : (
            await Promise.all(dataFiles.map((file) => countLines(file, options.maxRecords).catch(() => 0)))
          ).reduce((sum, lines) => sum + lines, 0);
    let verified = 0;
    let withoutContext = 0;
    const run = await runEvaluation({
      files: dataFiles,
      verify: verifyRecord,
      onVerified: (record) => {
        verified += 1;
        if (record.context === null || record.context.trim() === "") withoutContext += 1;
        // The last record is always drawn: the bar ends at its total, not at the last update let through.
        progress.update?.(countBar("eval", verified, total), { force: verified === total });
      },
      ...(options.layers !== undefined ? { layers: options.layers } : {}),
      onMalformed: options.onMalformed,
      maxRecords: options.maxRecords,
      concurrency: options.concurrency,
      ...(options.splits !== undefined ? { splits: options.splits } : {}),
      // Under --fail-on-malformed the line stops the run and the error names it: it is not "skipped".
      onMalformedLine: (line) => {
        if (options.onMalformed !== "skip") return;
        progress.done(); // the message gets a line of its own; the next update draws the bar again
        io.stderr(`${line.file}:${line.lineNumber}: malformed line skipped: ${line.reason}\n`);
      },
    }).finally(() => progress.done());
    if (withoutContext > 0)
      io.stderr(
        `veracity eval: warning: ${withoutContext} of ${verified} records have no context: the offline checks have nothing to check them against, so without a model (--model) each can only be unverified\n`,
      );
    report = buildReport(run);
    if (hasBars(options)) gate = checkGate(report.overall, options.bars);
    await writeRunOutputs(options, run, report);
  }
  const golden: GoldenRun[] = [];
  for (const file of options.goldenFiles) {
    const set = await loadGoldenSet(file, options.onMalformed);
    for (const line of set.malformed)
      io.stderr(`${line.file}:${line.lineNumber}: malformed line skipped: ${line.reason}\n`);
    golden.push(await runGoldenSet(set.name, set.cases, verify, options.layers));
  }
  if (golden.length > 0 && options.outputs.golden !== undefined)
    await writeOutput(options.outputs.golden, `${JSON.stringify({ golden }, nullForUndefined, 2)}\n`);

  if (options.json) {
    const document = {
      ...(report ?? {}),
      ...(gate !== undefined ? { gate } : {}),
      ...(golden.length > 0 ? { golden } : {}),
    };
    io.stdout(`${JSON.stringify(document, nullForUndefined, 2)}\n`);
  } else {
    if (report !== undefined) io.stdout(textReport(report));
    for (const run of golden) io.stdout(goldenTextReport(run));
    if (gate?.passed === true) io.stdout("Quality gate: every bar met.\n");
  }
  for (const miss of gate?.misses ?? []) io.stderr(`quality gate: ${miss}\n`);
  const goldenMissed = golden.some((run) => run.outcomes.some((outcome) => !outcome.met));
  return gate?.passed === false || goldenMissed ? ExitCode.findings : ExitCode.ok;
};

/** `veracity eval`, with the verifier factory injected (tests pass a fake; the CLI passes createVerifier). */
export const makeEvalCommand = (createEvalVerifier: EvalVerifierFactory): CliCommand => ({
  name: "eval",
  summary: "Measure detection on labelled data and golden sets; gate CI on quality bars",
  usage: evalUsage,
  examples: [
    "veracity eval --data records.jsonl --out eval-out",
    "veracity eval --golden examples/golden/spec-cases.yaml",
    "veracity eval --data train.jsonl --tune-on train --report-on test --min-balanced-accuracy 0.8",
  ],
  run: async (argv, io) => {
    let verifier: EvalVerifier | undefined;
    try {
      const options = parseEvalArgs(argv, io.cwd, isDatasetName);
      if (options.help) {
        io.stdout(`${evalUsage}\n`);
        return ExitCode.ok;
      }
      verifier = await createEvalVerifier({
        ...(options.layers !== undefined ? { layers: options.layers } : {}),
        ...options.verifier,
        concurrency: options.concurrency,
      });
      if (options.concurrency > 1 && verifier.inThisThread !== undefined)
        io.stderr(
          `veracity eval: note: --concurrency ${options.concurrency} runs the checks in this thread: ${verifier.inThisThread}\n`,
        );
      const inFlight = Math.max(options.concurrency, verifier.inFlight ?? 0);
      return await evaluate({ ...options, concurrency: inFlight }, verifier, io);
    } catch (error) {
      if (error instanceof UsageError || isTagged(error, "InputError", "ConfigError", "DatasetError")) {
        io.stderr(`veracity eval: ${error.message}\n`);
        return ExitCode.usage;
      }
      throw error;
    } finally {
      await verifier?.close();
    }
  },
});

/**
 * Worker threads `--concurrency N` verifies in: one per core but one, at most N, and none when that leaves
 * fewer than two. The core left over runs this thread (reading the files, collecting the verdicts) and V8's
 * compiler, which compiles the verifier's code again in every worker: on two cores, two workers took 1.2-1.4x
 * as long as one thread over the labelled sets (13,192 records), with 50-60% more CPU.
 */
export const evalWorkerThreads = (concurrency: number, cores: number): number => {
  const threads = Math.min(concurrency, cores - 1);
  return threads > 1 ? threads : 0;
};

/** Why an eval's offline checks stay in this thread on a machine of `cores` cores (see `evalWorkerThreads`). */
export const inThisThreadReason = (cores: number): string =>
  `this machine has ${cores} core${cores === 1 ? "" : "s"}, and a pool of worker threads gains only from 3 (one core stays with this thread, and each worker compiles the checks anew)`;

/** Calls in flight per worker of an eval's pool: enough that a worker never waits for this thread. */
const callsQueuedPerWorker = 8;

/**
 * The verifier of an eval: built from the shared CLI flags; with `--concurrency` above 1, cores to spare and
 * only what a worker can build (the offline layers, and the citations of a repository the configuration names),
 * its verifications run in a pool of worker threads (`evalWorkerThreads`) built with the same settings,
 * calibration and citations (`poolConfig`), so the records spread over every core and each gets the verdict this
 * thread would give it. A model-backed run, or one with an evidence store, stays in this thread.
 */
export const buildEvalVerifier = async (
  { strict, evidence, model, calibration, config, concurrency }: EvalVerifierOptions,
  cores = availableParallelism(),
): Promise<EvalVerifier & { readonly workerThreads: number }> => {
  const built = await buildVerifier({
    strict,
    ...(config !== undefined ? { config } : {}),
    ...(evidence !== undefined ? { evidence } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(calibration !== undefined ? { calibration } : {}),
  });
  const workers = built.poolConfig === undefined ? 0 : evalWorkerThreads(concurrency, cores);
  if (workers === 0 || built.poolConfig === undefined)
    return {
      verify: built.verify,
      close: built.close,
      workerThreads: 0,
      // A model-backed run keeps its calls in flight in this thread, which is what `--concurrency` is for there.
      ...(concurrency > 1 && built.poolConfig !== undefined
        ? {
            inThisThread: inThisThreadReason(cores),
          }
        : {}),
    };
  const pool = createWorkerPoolVerifier({ workers, ...built.poolConfig });
  return {
    verify: pool.verify,
    verifyRecord: pool.verifyLean,
    close: async () => {
      await pool.close();
      await built.close();
    },
    workerThreads: workers,
    // Calls waiting in each worker while it verifies one: the records' order is kept whatever order they end in.
    inFlight: workers * callsQueuedPerWorker,
  };
};

/** The registered command: the real verifier built from the shared CLI flags. */
export const evalCommand: CliCommand = makeEvalCommand((options) => buildEvalVerifier(options));
