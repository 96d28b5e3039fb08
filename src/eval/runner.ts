import { InputError } from "../model/errors.js";
import type { LayerName } from "../model/layer-name.js";
import type { LeanVerificationResult } from "../model/lean-result.js";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import { type MalformedLine, type MalformedPolicy, readEvalRecords } from "./datasets/read-records.js";
import { assignSplit, type SplitPlan } from "./datasets/split.js";
import { type TunedThreshold, tuneThreshold } from "./metrics/threshold.js";
import {
  applyThreshold,
  predictionFromError,
  predictionFromResult,
  type RecordPrediction,
} from "./prediction.js";
import type { EvalRecord } from "./record.js";

/** The verifier under evaluation: the Promise facade's `verify`, or a fake in tests. */
export type VerifyFunction = (request: VerificationRequest) => Promise<VerificationResult>;

/**
 * What verifies a labelled record: a `VerifyFunction`, or one answering lean results (`leanResult`), which is
 * all a record's prediction reads.
 */
export type RecordVerifyFunction = (request: VerificationRequest) => Promise<LeanVerificationResult>;

export interface EvalRunOptions {
  readonly files: readonly string[];
  readonly verify: RecordVerifyFunction;
  readonly layers?: readonly LayerName[];
  readonly onMalformed: MalformedPolicy;
  /** Most records read from one file. */
  readonly maxRecords: number;
  /** Verifications in flight at once (1 for offline checks on a small machine). */
  readonly concurrency: number;
  /** Tune a threshold on one split and report on another with it unchanged. */
  readonly splits?: SplitPlan;
  /** Called for every malformed line as it is met. */
  readonly onMalformedLine?: (line: MalformedLine) => void;
  /** Called when a record's verification has finished (passed, flagged or failed to run): for progress. */
  readonly onVerified?: (record: EvalRecord) => void;
  /** Clock for measured latency; injected in tests. */
  readonly now?: () => number;
}

export interface ThresholdTuning extends SplitPlan, TunedThreshold {
  readonly tunedOnRecords: number;
  /** Records whose split was neither `tuneOn` nor `reportOn`: not verified, not reported. */
  readonly excludedRecords: number;
}

export interface EvalRun {
  readonly files: readonly string[];
  /** The predictions the metrics are reported on (the `reportOn` split when tuning). */
  readonly predictions: readonly RecordPrediction[];
  readonly malformed: readonly MalformedLine[];
  readonly tuning: ThresholdTuning | undefined;
}

export const maxEvalFiles = 256;

/** The request a record is verified with: its response, its context as the only source, its question. */
export const requestForRecord = (
  record: EvalRecord,
  layers: readonly LayerName[] | undefined,
): VerificationRequest => ({
  text: record.response,
  sources: record.context !== null ? [record.context] : [],
  ...(record.question !== null ? { question: record.question } : {}),
  ...(layers !== undefined ? { layers } : {}),
});

const describeError = (error: unknown): string => {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
};

/**
 * Streams every file, verifies each record (at most `concurrency` at once) and collects predictions.
 * A verification that throws becomes a flagged prediction carrying the error, never a pass.
 * Bad files, malformed lines under the `fail` policy and untunable splits fail with an InputError.
 */
export const runEvaluation = async (options: EvalRunOptions): Promise<EvalRun> => {
  if (options.files.length === 0) throw new InputError({ message: "no data files given", code: "no-data" });
  if (options.files.length > maxEvalFiles) {
    throw new InputError({ message: `at most ${maxEvalFiles} data files per run`, code: "too-many-files" });
  }
  const now = options.now ?? (() => performance.now());
  const malformed: MalformedLine[] = [];
  const predictions: RecordPrediction[] = [];
  let excludedRecords = 0;
  const inFlight = new Set<Promise<void>>();

  const verifyOne = async (record: EvalRecord, split: string | undefined, slot: number): Promise<void> => {
    const started = now();
    try {
      const result = await options.verify(requestForRecord(record, options.layers));
      predictions[slot] = predictionFromResult(record, split, result, now() - started);
    } catch (error) {
      predictions[slot] = predictionFromError(record, split, describeError(error), now() - started);
    }
    options.onVerified?.(record);
  };

  let slot = 0;
  for (const file of options.files) {
    const records = readEvalRecords(file, {
      onMalformed: options.onMalformed,
      maxRecords: options.maxRecords,
      reportMalformed: (line) => {
        malformed.push(line);
        options.onMalformedLine?.(line);
      },
    });
    for await (const record of records) {
      const split = assignSplit(record, options.splits);
      if (
        options.splits !== undefined &&
        split !== options.splits.tuneOn &&
        split !== options.splits.reportOn
      ) {
        excludedRecords += 1;
        continue;
      }
      const task = verifyOne(record, split, slot).finally(() => inFlight.delete(task));
      inFlight.add(task);
      slot += 1;
      if (inFlight.size >= Math.max(1, options.concurrency)) await Promise.race(inFlight);
    }
  }
  await Promise.all(inFlight);

  if (options.splits === undefined) {
    return { files: options.files, predictions, malformed, tuning: undefined };
  }
  const plan = options.splits;
  const tuneSet = predictions.filter((prediction) => prediction.split === plan.tuneOn);
  const tuned = tuneThreshold(
    tuneSet.map((prediction) => ({ score: prediction.score, actual: prediction.label === "hallucinated" })),
  );
  if (tuned === undefined) {
    throw new InputError({
      message: `cannot tune on split "${plan.tuneOn}": it needs both supported and hallucinated records (has ${tuneSet.length} records)`,
      code: "untunable-split",
    });
  }
  const reportSet = predictions.filter((prediction) => prediction.split === plan.reportOn);
  if (reportSet.length === 0) {
    throw new InputError({
      message: `split "${plan.reportOn}" has no records to report on`,
      code: "empty-split",
    });
  }
  return {
    files: options.files,
    predictions: reportSet.map((prediction) => applyThreshold(prediction, tuned.threshold)),
    malformed,
    tuning: { ...plan, ...tuned, tunedOnRecords: tuneSet.length, excludedRecords },
  };
};
