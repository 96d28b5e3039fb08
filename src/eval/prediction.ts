import {
  type AnswerFeatures,
  answerFeatures,
  hasJudgedClaims,
} from "../calibration/combiner/answer-features.js";
import { isFailingVerdict } from "../model/claim.js";
import type { LeanVerificationResult } from "../model/lean-result.js";
import type { AnswerVerdict } from "../model/result.js";
import type { Span } from "../model/span.js";
import { isCombinerReason } from "../verification/decision.js";
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
  /** The answer verdict a user sees; undefined when verification failed. */
  readonly verdict: AnswerVerdict | undefined;
  /** overallConfidence; undefined when verification failed. */
  readonly confidence: number | undefined;
  /**
   * Hallucination score: the combined `hallucinationScore`, else `1 - overallConfidence`; 1 when verification
   * failed (fail closed).
   */
  readonly score: number;
  /**
   * Flagged as hallucinated: the verdict is `fail` (or the score is at or above a tuned threshold); always true
   * on error. `warn` and `unverified` are not flags: they are counted on their own.
   */
  readonly predicted: boolean;
  readonly latencyMs: number;
  readonly failingLayers: readonly string[];
  readonly skippedLayers: readonly string[];
  readonly layerScores: readonly LayerScore[];
  readonly flaggedClaims: readonly FlaggedClaim[];
  readonly goldSpans: readonly Span[];
  readonly usage: Usage;
  /** The answer's combiner features and whether a rule (not the combined score) failed it; for calibrate. */
  readonly answer?: { readonly features: AnswerFeatures; readonly failsByRule: boolean };
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

/** A record's prediction from its verification: a whole result or a lean one (`leanResult`) reads the same. */
export const predictionFromResult = (
  record: EvalRecord,
  split: string | undefined,
  result: LeanVerificationResult,
  measuredLatencyMs: number,
): RecordPrediction => ({
  ...base(record, split),
  passed: result.passed,
  verdict: result.verdict,
  confidence: result.overallConfidence,
  score: result.hallucinationScore ?? 1 - result.overallConfidence,
  predicted: result.verdict === "fail",
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
  ...(hasJudgedClaims(result.claims)
    ? {
        answer: {
          features: answerFeatures(result.claims, result.layersRun),
          failsByRule:
            result.verdict === "fail" && result.reasons.some((reason) => !isCombinerReason(reason)),
        },
      }
    : {}),
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
  verdict: undefined,
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
