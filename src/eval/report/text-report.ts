import type { GoldenRun } from "../golden/run-golden-set.js";
import type { GroupMetrics } from "../metrics/summary.js";
import type { EvalReport } from "./json-report.js";

const cell = (value: number | undefined, digits = 3): string =>
  value === undefined ? "n/a" : value.toFixed(digits);

const columns: readonly [string, (metrics: GroupMetrics) => string][] = [
  ["n", (m) => String(m.n)],
  ["tp", (m) => String(m.tp)],
  ["fp", (m) => String(m.fp)],
  ["tn", (m) => String(m.tn)],
  ["fn", (m) => String(m.fn)],
  ["precision", (m) => cell(m.precision)],
  ["recall", (m) => cell(m.recall)],
  ["f1", (m) => cell(m.f1)],
  ["fpr", (m) => cell(m.fpr)],
  ["balancedAccuracy", (m) => cell(m.balancedAccuracy)],
  ["auroc", (m) => cell(m.auroc)],
  ["hallucinationRate", (m) => cell(m.hallucinationRate)],
  ["spanF1", (m) => (m.spans.records === 0 ? "n/a" : cell(m.spans.f1))],
  ["ece", (m) => cell(m.calibration.ece)],
  ["brier", (m) => cell(m.calibration.brier)],
  ["p50Ms", (m) => cell(m.latency.p50Ms, 2)],
  ["p95Ms", (m) => cell(m.latency.p95Ms, 2)],
  ["llmCalls", (m) => String(m.usage.llmCalls)],
  ["tokens", (m) => String(m.usage.tokens)],
  ["cost", (m) => m.usage.cost.toFixed(4)],
  ["errors", (m) => String(m.errors)],
];

/** A plain-text table with one row per group, columns padded to line up. */
export const metricsTable = (rows: readonly [string, GroupMetrics][]): string => {
  const header = ["", ...columns.map(([name]) => name)];
  const body = rows.map(([name, metrics]) => [name, ...columns.map(([, format]) => format(metrics))]);
  const widths = header.map((title, index) =>
    Math.max(title.length, ...body.map((row) => row[index]!.length)),
  );
  const render = (row: readonly string[]) =>
    row
      .map((text, index) => (index === 0 ? text.padEnd(widths[index]!) : text.padStart(widths[index]!)))
      .join("  ");
  return [render(header), ...body.map(render)].join("\n");
};

export const textReport = (report: EvalReport): string => {
  const decision =
    report.decision.rule === "tuned-threshold"
      ? `threshold ${report.decision.threshold.toFixed(4)} tuned on "${report.decision.tuneOn}" (${report.decision.tunedOnRecords} records), reported on "${report.decision.reportOn}"`
      : "flagged when passed === false";
  return [
    `Positive class: hallucinated. Decision: ${decision}.`,
    "",
    "Per dataset",
    metricsTable(Object.entries(report.datasets)),
    "",
    "Per task",
    metricsTable(Object.entries(report.tasks)),
    "",
    "Overall",
    metricsTable([["overall", report.overall]]),
    ...(report.malformed.count > 0 ? ["", `Malformed lines skipped: ${report.malformed.count}`] : []),
    "",
  ].join("\n");
};

export const goldenTextReport = (run: GoldenRun): string => {
  const lines = run.outcomes.map(
    (outcome) =>
      `${outcome.met ? "ok  " : "FAIL"} ${outcome.id}: ${outcome.answer.reason}${outcome.mismatches.length > 0 ? `\n       ${outcome.mismatches.join("\n       ")}` : ""}`,
  );
  const summary = run.summary;
  return [
    `Golden set ${run.name}: ${summary.cases} cases`,
    ...lines,
    `expectations met ${cell(summary.expectationsMet)}, verdict accuracy ${cell(summary.verdictAccuracy)}, hallucination rate ${cell(summary.hallucinationRate)}, execution-error rate ${cell(summary.executionErrorRate)}, ambiguity rate ${cell(summary.ambiguityRate)}, format accuracy ${cell(summary.formatAccuracy)}, answer accuracy ${cell(summary.answerAccuracy)}`,
    "",
  ].join("\n");
};
