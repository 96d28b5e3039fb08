import { correctionFailures } from "../../correction/failures.js";
import { buildLoopCorrectionPrompt } from "../../correction/prompt.js";
import type { Verifier } from "../../facade/create-verifier.js";
import type { VerificationResult } from "../../model/result.js";
import { type MitigationMode, type MitigationTexts, mitigateOffline } from "./mitigation-mode.js";

/** The evidence an answer is checked against. */
export interface AnswerEvidence {
  readonly sources: readonly string[];
  readonly context?: string;
  readonly question?: string;
}

/** What a regeneration is asked to fix. */
export interface RegenerationRequest {
  readonly answer: string;
  readonly result: VerificationResult;
  /** A ready-made instruction listing the failing claims, to send to the model as a user message. */
  readonly feedback: string;
  readonly attempt: number;
}

export type Regenerate = (request: RegenerationRequest) => Promise<string>;

export interface AnswerCheckOptions {
  readonly verifier: Verifier;
  readonly mode: MitigationMode;
  readonly texts?: MitigationTexts;
  /** For `regenerate`: how the answer is rewritten. Without it, `regenerate` falls back at once. */
  readonly regenerate?: Regenerate;
  /** For `regenerate`: most rewrites (default 1, at most 5). */
  readonly maxRegenerations?: number;
  /** For `regenerate`: what is applied when the last rewrite still fails (default `disclaimer`). */
  readonly fallback?: Exclude<MitigationMode, "regenerate">;
}

/** The outcome: the text to return, the verification of the text that was judged, and what was done. */
export interface CheckedAnswer {
  readonly text: string;
  readonly originalText: string;
  readonly passed: boolean;
  /** The verification of the last text verified (absent when verification itself failed). */
  readonly result?: VerificationResult;
  /** What produced `text`: `regenerate` only when a rewrite passed; after failed rewrites, the fallback. */
  readonly applied: "none" | MitigationMode;
  readonly regenerations: number;
  /** Why verification could not run: the answer is then blocked (fail closed). */
  readonly error?: string;
}

const maxRegenerationLimit = 5;

/**
 * The instruction sent with a regeneration: the correction loop's prompt (src/correction), with each failing
 * check, the previous answer and the evidence.
 */
export const regenerationFeedback = (
  answer: string,
  result: VerificationResult,
  sources: readonly string[],
): string =>
  buildLoopCorrectionPrompt({
    previousAnswer: answer,
    failures: correctionFailures(result),
    reasons: result.reasons,
    sources,
  });

const errorMessage = (error: unknown): string =>
  error instanceof Error ? error.message : typeof error === "string" ? error : JSON.stringify(error);

/**
 * Verifies an answer against its evidence and applies the configured mitigation. A verification that
 * errors is never a pass: the answer is replaced by the blocked reply and the error is reported.
 */
export const checkAnswer = async (
  answer: string,
  evidence: AnswerEvidence,
  options: AnswerCheckOptions,
): Promise<CheckedAnswer> => {
  const verify = (text: string) =>
    options.verifier.verify({
      text,
      sources: [...evidence.sources],
      ...(evidence.context === undefined ? {} : { context: evidence.context }),
      ...(evidence.question === undefined ? {} : { question: evidence.question }),
    });
  const blocked = (error: unknown, regenerations: number): CheckedAnswer => ({
    text: mitigateOffline(answer, emptyResult, "block", options.texts),
    originalText: answer,
    passed: false,
    applied: "block",
    regenerations,
    error: errorMessage(error),
  });
  let text = answer;
  let result: VerificationResult;
  try {
    result = await verify(text);
  } catch (error) {
    return blocked(error, 0);
  }
  if (result.passed)
    return { text, originalText: answer, passed: true, result, applied: "none", regenerations: 0 };
  if (options.mode !== "regenerate") {
    return {
      text: mitigateOffline(text, result, options.mode, options.texts),
      originalText: answer,
      passed: false,
      result,
      applied: options.mode,
      regenerations: 0,
    };
  }
  const limit = Math.min(Math.max(Math.floor(options.maxRegenerations ?? 1), 0), maxRegenerationLimit);
  let regenerations = 0;
  while (options.regenerate !== undefined && regenerations < limit) {
    regenerations++;
    try {
      text = await options.regenerate({
        answer: text,
        result,
        feedback: regenerationFeedback(text, result, evidence.sources),
        attempt: regenerations,
      });
      result = await verify(text);
    } catch (error) {
      return blocked(error, regenerations);
    }
    if (result.passed)
      return { text, originalText: answer, passed: true, result, applied: "regenerate", regenerations };
  }
  const fallback = options.fallback ?? "disclaimer";
  return {
    text: mitigateOffline(text, result, fallback, options.texts),
    originalText: answer,
    passed: false,
    result,
    applied: fallback,
    regenerations,
  };
};

const emptyResult: VerificationResult = {
  verdict: "unverified",
  passed: false,
  coverage: 0,
  overallConfidence: 0,
  riskLevel: "high",
  layersRun: [],
  mitigations: [],
  totalLatencyMs: 0,
  costIncurred: 0,
  claims: [],
  skippedLayers: [],
  reasons: [],
};
