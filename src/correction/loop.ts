import { Effect } from "effect";
import type { LLMError } from "../llm/errors.js";
import { LLMService } from "../llm/llm-service.js";
import type { ChatMessage } from "../llm/messages.js";
import { InputError, type VerificationError, type VerificationTimeoutError } from "../model/errors.js";
import type { LayerName } from "../model/layer-name.js";
import type { VerificationRequest } from "../model/request.js";
import type { VerificationResult } from "../model/result.js";
import type { RiskLevel } from "../model/risk.js";
import { VerificationService } from "../verification/service.js";
import { type CorrectionFailure, correctionFailures } from "./failures.js";
import { buildLoopCorrectionPrompt } from "./prompt.js";

export const defaultMaxCorrectionIterations = 3;
export const maxCorrectionIterationsLimit = 10;

export const defaultInsufficientEvidenceAnswer =
  "I don't have enough verified evidence to answer this reliably.";

export interface CorrectionLoopOptions {
  /** The generation prompt (question and instructions; `buildGroundedAnalysisPrompt` fits). */
  readonly prompt: string;
  /** The evidence the answer must be grounded in; sent to the verifier and back to the model. */
  readonly sources: readonly string[];
  readonly system?: string;
  /** Generations at most, the first included (default 3, at most 10). */
  readonly maxIterations?: number;
  /** When every iteration fails: a fixed "insufficient evidence" answer, or the last text with its warnings. */
  readonly fallback?: "insufficient-evidence" | "last-with-warnings";
  readonly insufficientEvidenceAnswer?: string;
  /** Passed to every verification. */
  readonly layers?: readonly LayerName[];
  readonly riskOverride?: RiskLevel;
  readonly question?: string;
}

/** One round: what the model wrote, what verification said, what was sent back. */
export interface CorrectionIteration {
  readonly iteration: number;
  readonly text: string;
  readonly result: VerificationResult;
  readonly failures: readonly CorrectionFailure[];
  /** The prompt that asked for the next round; undefined on the last round. */
  readonly correctionPrompt: string | undefined;
}

export interface CorrectionOutcome {
  /** passed: the first answer passed; corrected: a later one did; exhausted: none did, `text` is the fallback. */
  readonly outcome: "passed" | "corrected" | "exhausted";
  readonly text: string;
  readonly iterations: number;
  readonly trace: readonly CorrectionIteration[];
  /** What is still wrong with `text` (empty unless exhausted). */
  readonly warnings: readonly string[];
  readonly fallback: "insufficient-evidence" | "last-with-warnings" | undefined;
}

export type CorrectionLoopError = LLMError | VerificationError | VerificationTimeoutError | InputError;

const warningOf = (failure: CorrectionFailure): string =>
  `${failure.kind}: ${JSON.stringify(failure.claim)}: ${failure.message}`;

const withWarnings = (text: string, warnings: readonly string[]): string =>
  warnings.length === 0
    ? text
    : `${text.trimEnd()}\n\nWarning: this answer failed verification:\n${warnings.map((warning) => `- ${warning}`).join("\n")}`;

/**
 * The correction loop: generate, verify, send the model the specific failures with their evidence,
 * regenerate; at most `maxIterations` generations. A verification or model outage fails the loop with its
 * typed error: it is never taken as a passing answer.
 */
export const runCorrectionLoop = (
  options: CorrectionLoopOptions,
): Effect.Effect<CorrectionOutcome, CorrectionLoopError, LLMService | VerificationService> =>
  Effect.gen(function* () {
    const llm = yield* LLMService;
    const verifier = yield* VerificationService;
    return yield* correctionLoopWith<CorrectionLoopError>(options, {
      generate: (messages) =>
        Effect.map(llm.complete({ messages, temperature: 0, purpose: "correction" }), (done) => done.text),
      verify: verifier.verify,
    });
  });

/** What the loop needs: a model that writes the next answer, and a verifier. */
export interface CorrectionParts<E> {
  readonly generate: (messages: readonly ChatMessage[]) => Effect.Effect<string, E>;
  readonly verify: (request: VerificationRequest) => Effect.Effect<VerificationResult, E>;
}

/** The loop over any model and verifier (the Promise API builds its parts from plain async functions). */
export const correctionLoopWith = <E>(
  options: CorrectionLoopOptions,
  parts: CorrectionParts<E>,
): Effect.Effect<CorrectionOutcome, E | InputError> =>
  Effect.gen(function* () {
    const maxIterations = options.maxIterations ?? defaultMaxCorrectionIterations;
    if (
      !Number.isSafeInteger(maxIterations) ||
      maxIterations < 1 ||
      maxIterations > maxCorrectionIterationsLimit
    )
      return yield* Effect.fail(
        new InputError({
          message: `maxIterations must be a whole number from 1 to ${maxCorrectionIterationsLimit}`,
          code: "correction-options",
        }),
      );
    const messages: ChatMessage[] = [
      ...(options.system === undefined ? [] : [{ role: "system" as const, content: options.system }]),
      { role: "user", content: options.prompt },
    ];
    const trace: CorrectionIteration[] = [];
    for (let iteration = 1; iteration <= maxIterations; iteration++) {
      const text = (yield* parts.generate([...messages])).trim();
      const result = yield* parts.verify({
        text,
        sources: options.sources,
        ...(options.layers === undefined ? {} : { layers: options.layers }),
        ...(options.riskOverride === undefined ? {} : { riskOverride: options.riskOverride }),
        ...(options.question === undefined ? {} : { question: options.question }),
      });
      const failures = correctionFailures(result);
      if (result.passed) {
        trace.push({ iteration, text, result, failures, correctionPrompt: undefined });
        return {
          outcome: iteration === 1 ? "passed" : "corrected",
          text,
          iterations: iteration,
          trace,
          warnings: [],
          fallback: undefined,
        } satisfies CorrectionOutcome;
      }
      const correctionPrompt =
        iteration < maxIterations
          ? buildLoopCorrectionPrompt({
              previousAnswer: text,
              failures,
              reasons: result.reasons,
              sources: options.sources,
            })
          : undefined;
      trace.push({ iteration, text, result, failures, correctionPrompt });
      if (correctionPrompt !== undefined)
        messages.push({ role: "assistant", content: text }, { role: "user", content: correctionPrompt });
    }
    const last = trace.at(-1)!;
    const warnings =
      last.failures.length > 0
        ? last.failures.map(warningOf)
        : last.result.reasons.map((reason) => `failed: ${reason}`);
    const fallback = options.fallback ?? "insufficient-evidence";
    return {
      outcome: "exhausted",
      text:
        fallback === "insufficient-evidence"
          ? (options.insufficientEvidenceAnswer ?? defaultInsufficientEvidenceAnswer)
          : withWarnings(last.text, warnings),
      iterations: maxIterations,
      trace,
      warnings,
      fallback,
    } satisfies CorrectionOutcome;
  });
