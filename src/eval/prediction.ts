import { isFailingVerdict } from "../model/claim.js";
import type { VerificationResult } from "../model/result.js";
import type { Span } from "../model/span.js";
import { noUsage, type Usage, usageOf } from "./metrics/usage.js";
import type { EvalRecord, RecordLabel } from "./record.js";

/** A claim the verifier flagged (verdict unsupported or contradicted), kept for reports. */
export interface FlaggedClaim {
  readonly span: Span;
  readonly verdict: string;
  readonly text: string;
  readonly issues: readonly string[];
}

export interface LayerScore {
  readonly layer: string;
  /** The calibrated score the decision used. */
  readonly score: number;
  readonly passed: boolean;
  /** The layer's raw score before calibration (`details.rawScore`), when the service recorded it. */
  readonly rawScore?: number;
}

const rawScoreOf = (details: Readonly<Record<string, unknown>>): { rawScore?: number } => {
  const raw = details.rawScore;
  return typeof raw === "number" && Number.isFinite(raw) ? { rawScore: raw } : {};
};

/** What the harness keeps of one verified record. */
export interface RecordPrediction {
  readonly id: string;
  readonly dataset: string;
  readonly task: string;
  readonly split: string | undefined;
  readonly label: RecordLabel;
  readonly response: string;
  /** The verifier's verdict; undefined when verification failed. */
  readonly passed: boolean | undefined;
  /** overallConfidence; undefined when verification failed. */
  readonly confidence: number | undefined;
  /** Hallucination score `1 - overallConfidence`; 1 when verification failed (fail closed). */
  readonly score: number;
  /** Flagged as hallucinated: `passed === false` (or score at or above a tuned threshold); always true on error. */
  readonly predicted: boolean;
  readonly latencyMs: number;
  readonly failingLayers: readonly string[];
  readonly skippedLayers: readonly string[];
  readonly layerScores: readonly LayerScore[];
  readonly flaggedClaims: readonly FlaggedClaim[];
  readonly goldSpans: readonly Span[];
  readonly usage: Usage;
  /** Why verification could not run, when it could not. */
  readonly error: string | undefined;
}

const base = (record: EvalRecord, split: string | undefined) => ({
  id: record.id,
  dataset: record.dataset,
  task: record.task,
  split,
  label: record.label,
  response: record.response,
  goldSpans: record.spans.map((span) => ({ start: span.start, end: span.end })),
});

export const predictionFromResult = (
  record: EvalRecord,
  split: string | undefined,
  result: VerificationResult,
  measuredLatencyMs: number,
): RecordPrediction => ({
  ...base(record, split),
  passed: result.passed,
  confidence: result.overallConfidence,
  score: 1 - result.overallConfidence,
  predicted: result.passed === false,
  latencyMs: Number.isFinite(result.totalLatencyMs) ? result.totalLatencyMs : measuredLatencyMs,
  failingLayers: result.layersRun.filter((layer) => !layer.passed).map((layer) => layer.layer),
  skippedLayers: result.skippedLayers.map((skipped) => skipped.layer),
  layerScores: result.layersRun.map((layer) => ({
    layer: layer.layer,
    score: layer.score,
    passed: layer.passed,
    ...rawScoreOf(layer.details),
  })),
  flaggedClaims: result.claims
    .filter((claim) => isFailingVerdict(claim.verdict))
    .map((claim) => ({
      span: claim.span,
      verdict: claim.verdict,
      text: claim.text,
      issues: claim.issues.map((issue) => issue.message),
    })),
  usage: usageOf(result.layersRun, result.costIncurred),
  error: undefined,
});

/** A record whose verification failed: flagged, score 1, never a pass. */
export const predictionFromError = (
  record: EvalRecord,
  split: string | undefined,
  error: string,
  measuredLatencyMs: number,
): RecordPrediction => ({
  ...base(record, split),
  passed: undefined,
  confidence: undefined,
  score: 1,
  predicted: true,
  latencyMs: measuredLatencyMs,
  failingLayers: [],
  skippedLayers: [],
  layerScores: [],
  flaggedClaims: [],
  usage: noUsage,
  error,
});

/** Re-decides a prediction with a tuned threshold on its score (errors stay flagged). */
export const applyThreshold = (prediction: RecordPrediction, threshold: number): RecordPrediction => ({
  ...prediction,
  predicted: prediction.error !== undefined || prediction.score >= threshold,
});
