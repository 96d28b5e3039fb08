import { groupBy } from "../../model/group-by.js";
import type { MalformedLine } from "../datasets/read-records.js";
import { type GroupMetrics, groupMetrics } from "../metrics/summary.js";
import type { EvalRun, ThresholdTuning } from "../runner.js";

/** The `--json` shape: the foundation's `{ datasets, overall }` extended with tasks, tuning and input problems. */
export interface EvalReport {
  readonly datasets: Readonly<Record<string, GroupMetrics>>;
  readonly tasks: Readonly<Record<string, GroupMetrics>>;
  readonly overall: GroupMetrics;
  /** How records were decided: `passed === false`, or a threshold tuned on another split. */
  readonly decision:
    | { readonly rule: "verifier-verdict" }
    | ({ readonly rule: "tuned-threshold" } & ThresholdTuning);
  readonly files: readonly string[];
  readonly malformed: { readonly count: number; readonly lines: readonly MalformedLine[] };
}

/** Malformed lines listed in a report; the count is always complete. */
export const maxListedMalformedLines = 100;

export const buildReport = (run: EvalRun): EvalReport => {
  const metricsBy = (key: (prediction: EvalRun["predictions"][number]) => string) =>
    Object.fromEntries(
      [...groupBy(run.predictions, key)].map(([name, group]) => [name, groupMetrics(group)]),
    );
  return {
    datasets: metricsBy((prediction) => prediction.dataset),
    tasks: metricsBy((prediction) => prediction.task),
    overall: groupMetrics(run.predictions),
    decision:
      run.tuning === undefined ? { rule: "verifier-verdict" } : { rule: "tuned-threshold", ...run.tuning },
    files: run.files,
    malformed: { count: run.malformed.length, lines: run.malformed.slice(0, maxListedMalformedLines) },
  };
};

/** JSON text of a report: undefined metrics become `null` (never NaN, never a missing key). */
export const reportToJson = (report: EvalReport): string =>
  JSON.stringify(report, (_key, value: unknown) => (value === undefined ? null : value), 2);
