import type { RecordPrediction } from "../prediction.js";

const columns = [
  "id",
  "dataset",
  "task",
  "split",
  "label",
  "score",
  "predicted",
  "passed",
  "latency_ms",
  "failing_layers",
  "skipped_layers",
  "error",
] as const;

/** RFC 4180 quoting: fields with a comma, quote or line break are quoted, quotes doubled. */
export const csvField = (value: string): string =>
  /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;

const row = (prediction: RecordPrediction): string =>
  [
    prediction.id,
    prediction.dataset,
    prediction.task,
    prediction.split ?? "",
    prediction.label,
    prediction.score.toFixed(6),
    prediction.predicted ? "hallucinated" : "supported",
    prediction.passed === undefined ? "" : String(prediction.passed),
    prediction.latencyMs.toFixed(3),
    prediction.failingLayers.join(";"),
    prediction.skippedLayers.join(";"),
    prediction.error ?? "",
  ]
    .map(csvField)
    .join(",");

/** One CSV row per record: id, label, score, predicted class, latency and failing layers. */
export const predictionsToCsv = (predictions: readonly RecordPrediction[]): string =>
  [columns.join(","), ...predictions.map(row)].join("\n") + "\n";
