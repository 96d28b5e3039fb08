export { makeBoundedLabel, maxLabelValues } from "./bounded-label.js";
export {
  makeCacheStatsRecorder,
  makeModelUsageRecorder,
  metricsSubscriber,
  recordCorrectionLoop,
  recordResultDetails,
} from "./record.js";
export { makeVeracityMetrics, renderMetrics, type VeracityMetrics } from "./registry.js";
