import { groupBy } from "../../model/group-by.js";
import { escapeHtml } from "../../report/escape-html.js";
import { narrowScreenStyle } from "../../report/narrow-screen-style.js";
import { rocCurve } from "../metrics/auroc.js";
import type { GroupMetrics } from "../metrics/summary.js";
import type { RecordPrediction } from "../prediction.js";
import { highlightSpans } from "./highlight.js";
import type { EvalReport } from "./json-report.js";
import { reliabilitySvg, rocCurveSvg } from "./svg-charts.js";

const number = (value: number | undefined, digits = 3): string =>
  value === undefined ? "n/a" : value.toFixed(digits);

const metricColumns: readonly [string, (metrics: GroupMetrics) => string][] = [
  ["n", (m) => String(m.n)],
  ["tp", (m) => String(m.tp)],
  ["fp", (m) => String(m.fp)],
  ["tn", (m) => String(m.tn)],
  ["fn", (m) => String(m.fn)],
  ["precision", (m) => number(m.precision)],
  ["recall", (m) => number(m.recall)],
  ["F1", (m) => number(m.f1)],
  ["FPR", (m) => number(m.fpr)],
  ["balanced acc.", (m) => number(m.balancedAccuracy)],
  ["AUROC", (m) => number(m.auroc)],
  ["halluc. rate", (m) => number(m.hallucinationRate)],
  ["span F1", (m) => (m.spans.records === 0 ? "n/a" : number(m.spans.f1))],
  ["ECE", (m) => number(m.calibration.ece)],
  ["Brier", (m) => number(m.calibration.brier)],
  ["p50 ms", (m) => number(m.latency.p50Ms, 1)],
  ["p95 ms", (m) => number(m.latency.p95Ms, 1)],
  ["LLM calls", (m) => String(m.usage.llmCalls)],
  ["tokens", (m) => String(m.usage.tokens)],
  ["cost", (m) => m.usage.cost.toFixed(4)],
  ["errors", (m) => String(m.errors)],
];

const metricsTable = (id: string, caption: string, rows: readonly [string, GroupMetrics][]): string => {
  const head = `<tr><th>${escapeHtml(caption)}</th>${metricColumns.map(([name]) => `<th>${name}</th>`).join("")}</tr>`;
  const body = rows
    .map(
      ([name, metrics]) =>
        `<tr><th>${escapeHtml(name)}</th>${metricColumns.map(([, cell]) => `<td>${cell(metrics)}</td>`).join("")}</tr>`,
    )
    .join("");
  return `<table id="${id}" class="metrics"><thead>${head}</thead><tbody>${body}</tbody></table>`;
};

const missCard = (prediction: RecordPrediction): string => {
  const claims = prediction.flaggedClaims
    .map(
      (claim) =>
        `<li><b>${escapeHtml(claim.verdict)}</b>: ${escapeHtml(claim.text)}${claim.issues.length > 0 ? ` <i>(${escapeHtml(claim.issues.join("; "))})</i>` : ""}</li>`,
    )
    .join("");
  return `<div class="miss"><div class="miss-head"><code>${escapeHtml(prediction.id)}</code> label <b>${prediction.label}</b>, score ${prediction.score.toFixed(3)}${prediction.failingLayers.length > 0 ? `, failing: ${escapeHtml(prediction.failingLayers.join(", "))}` : ""}${prediction.error !== undefined ? `, error: ${escapeHtml(prediction.error)}` : ""}</div><p class="response">${highlightSpans(
    prediction.response,
    prediction.flaggedClaims.map((claim) => claim.span),
    prediction.goldSpans,
  )}</p>${claims.length > 0 ? `<ul>${claims}</ul>` : ""}</div>`;
};

/** Missed hallucinations with the lowest scores and false alarms with the highest: the worst misses. */
export const worstMisses = (predictions: readonly RecordPrediction[], count: number) => ({
  missedHallucinations: predictions
    .filter((prediction) => prediction.label === "hallucinated" && !prediction.predicted)
    .sort((a, b) => a.score - b.score)
    .slice(0, count),
  falseAlarms: predictions
    .filter((prediction) => prediction.label === "supported" && prediction.predicted)
    .sort((a, b) => b.score - a.score)
    .slice(0, count),
});

const styles = `body{font-family:system-ui,sans-serif;margin:24px;color:#222}table.metrics{border-collapse:collapse;font-size:12px;margin:8px 0 24px}table.metrics td,table.metrics th{border:1px solid #ccc;padding:3px 6px;text-align:right}table.metrics th:first-child{text-align:left}.charts{display:flex;gap:24px;flex-wrap:wrap}.miss{border:1px solid #ddd;border-radius:4px;padding:8px;margin:8px 0;font-size:13px}.response{white-space:pre-wrap}mark.flagged{background:#ffd2d2}mark.gold{background:#d2e4ff}mark.flagged.gold{background:#e2c2ff}`;

/** A self-contained HTML report: no scripts, no external resources; charts are inline SVG. */
export const renderHtmlReport = (
  report: EvalReport,
  predictions: readonly RecordPrediction[],
  options: { readonly title?: string; readonly maxMisses?: number } = {},
): string => {
  const title = options.title ?? "Veracity evaluation report";
  const scored = (group: readonly RecordPrediction[]) =>
    group.map((prediction) => ({ score: prediction.score, actual: prediction.label === "hallucinated" }));
  const series = [
    { name: "overall", points: rocCurve(scored(predictions)) },
    ...[...groupBy(predictions, (prediction) => prediction.dataset)].map(([name, group]) => ({
      name,
      points: rocCurve(scored(group)),
    })),
  ];
  const decision =
    report.decision.rule === "tuned-threshold"
      ? `threshold ${report.decision.threshold.toFixed(4)} on the hallucination score, tuned on split <b>${escapeHtml(report.decision.tuneOn)}</b> (${report.decision.tunedOnRecords} records, balanced accuracy ${report.decision.balancedAccuracy.toFixed(3)}) and applied unchanged to split <b>${escapeHtml(report.decision.reportOn)}</b>`
      : "flagged when the verifier's verdict is <code>passed === false</code>";
  const misses = worstMisses(predictions, options.maxMisses ?? 10);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><meta name="viewport" content="width=device-width, initial-scale=1"><style>${styles}${narrowScreenStyle}</style></head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>${predictions.length} records from ${report.files.map((file) => `<code>${escapeHtml(file)}</code>`).join(", ")}. Positive class: hallucinated; score = 1 &minus; overallConfidence. Decision: ${decision}. Malformed lines: ${report.malformed.count}.</p>
<h2>Overall</h2>
${metricsTable("overall-table", "", [["overall", report.overall]])}
<h2>Per dataset</h2>
${metricsTable("dataset-table", "dataset", Object.entries(report.datasets))}
<h2>Per task</h2>
${metricsTable("task-table", "task", Object.entries(report.tasks))}
<h2>Curves</h2>
<div class="charts"><figure>${rocCurveSvg(series)}<figcaption>ROC curve</figcaption></figure><figure>${reliabilitySvg(report.overall.calibration.bins)}<figcaption>Reliability of overallConfidence (ECE ${number(report.overall.calibration.ece)}, Brier ${number(report.overall.calibration.brier)})</figcaption></figure></div>
<h2>Worst misses</h2>
<p><mark class="flagged">flagged claim</mark> <mark class="gold">gold hallucinated span</mark></p>
<h3>Missed hallucinations (lowest scores)</h3>
<div id="missed-hallucinations">${misses.missedHallucinations.map(missCard).join("") || "<p>none</p>"}</div>
<h3>False alarms (highest scores)</h3>
<div id="false-alarms">${misses.falseAlarms.map(missCard).join("") || "<p>none</p>"}</div>
</body></html>
`;
};
