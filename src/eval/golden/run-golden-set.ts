import { isFailingVerdict } from "../../model/claim.js";
import type { LayerName } from "../../model/layer-name.js";
import { ratio } from "../../model/ratio.js";
import type { VerificationRequest } from "../../model/request.js";
import type { VerificationResult } from "../../model/result.js";
import type { VerifyFunction } from "../runner.js";
import { type AnswerSignals, type AnswerValidation, validateAnswer } from "./answer-validator.js";
import type { GoldenCase } from "./golden-case.js";

export interface GoldenCaseOutcome {
  readonly id: string;
  /** Every expectation of the case held. */
  readonly met: boolean;
  /** One line per expectation that did not hold. */
  readonly mismatches: readonly string[];
  readonly passed: boolean | undefined;
  readonly riskLevel: string | undefined;
  readonly flaggedClaims: readonly string[];
  readonly answer: AnswerValidation;
  readonly error: string | undefined;
}

export interface GoldenSummary {
  readonly cases: number;
  /** Share of cases whose every expectation held. */
  readonly expectationsMet: number | undefined;
  /** Share of cases whose pass/fail verdict was the expected one. */
  readonly verdictAccuracy: number | undefined;
  /**
   * Share of answers whose value did not come from a verified source (the source gate blocked them). Answers
   * blocked for an execution error or an ambiguity are not hallucinations: they have their own rates.
   */
  readonly hallucinationRate: number | undefined;
  /** Share of answers blocked because the run that produced or verified them had an error. */
  readonly executionErrorRate: number | undefined;
  /** Share of answers blocked because the run that produced them met an ambiguity. */
  readonly ambiguityRate: number | undefined;
  /** Among answers that passed the gates and carry format expectations, the share whose format matched. */
  readonly formatAccuracy: number | undefined;
  /** Share of answers that passed both the gates and the format check. */
  readonly answerAccuracy: number | undefined;
}

export interface GoldenRun {
  readonly name: string;
  readonly outcomes: readonly GoldenCaseOutcome[];
  readonly summary: GoldenSummary;
}

const requestFor = (
  goldenCase: GoldenCase,
  layers: readonly LayerName[] | undefined,
): VerificationRequest => {
  const chosenLayers = goldenCase.layers ?? layers;
  return {
    text: goldenCase.text,
    ...(goldenCase.sources !== undefined ? { sources: goldenCase.sources } : {}),
    ...(goldenCase.context !== undefined ? { context: goldenCase.context } : {}),
    ...(goldenCase.question !== undefined ? { question: goldenCase.question } : {}),
    ...(goldenCase.riskOverride !== undefined ? { riskOverride: goldenCase.riskOverride } : {}),
    ...(chosenLayers !== undefined ? { layers: chosenLayers } : {}),
  };
};

/**
 * The answer's provenance: Veracity's verification is the source check, so the source counts as verified
 * only when the verifier passed the text (and the recorded `source_verified`, if any, is true). When the
 * verification could not run there is no verified source at all (the conservative default applies).
 */
export const signalsFor = (
  goldenCase: GoldenCase,
  result: VerificationResult | undefined,
): AnswerSignals => ({
  sourceVerified:
    result === undefined ? undefined : result.passed && goldenCase.signals?.source_verified !== false,
  errorDetected: result === undefined || goldenCase.signals?.error_detected === true,
  ambiguityDetected: goldenCase.signals?.ambiguity_detected === true,
});

const unflaggedPhrases = (goldenCase: GoldenCase, result: VerificationResult): readonly string[] => {
  const flagged = result.claims.filter((claim) => isFailingVerdict(claim.verdict));
  return (goldenCase.expected.flaggedClaims ?? []).filter((phrase) => {
    const start = goldenCase.text.indexOf(phrase);
    if (start < 0) return true;
    const end = start + phrase.length;
    return !flagged.some(
      (claim) =>
        (claim.span.start < end && start < claim.span.end) ||
        claim.issues.some((issue) => issue.span.start < end && start < issue.span.end),
    );
  });
};

const judgeCase = (
  goldenCase: GoldenCase,
  result: VerificationResult | undefined,
  error: string | undefined,
): GoldenCaseOutcome => {
  const expected = goldenCase.expected;
  const mismatches: string[] = [];
  if (result === undefined) {
    mismatches.push(`verification failed: ${error ?? "unknown error"}`);
  } else {
    if (result.passed !== expected.passed) {
      mismatches.push(
        `expected the verifier to ${expected.passed ? "pass" : "flag"} the text, it ${result.passed ? "passed" : "flagged"} it`,
      );
    }
    if (expected.tier !== undefined && result.riskLevel !== expected.tier) {
      mismatches.push(`expected tier ${expected.tier}, got ${result.riskLevel}`);
    }
    for (const phrase of unflaggedPhrases(goldenCase, result))
      mismatches.push(`expected "${phrase}" to be in a flagged claim`);
  }
  const answer = validateAnswer(goldenCase.text, expected.answer ?? {}, signalsFor(goldenCase, result));
  // By default a case expected to pass must have a valid answer and one expected to fail a rejected one.
  const answerShouldBeValid = expected.answerValid ?? expected.passed;
  if (answerShouldBeValid && !answer.valid) mismatches.push(`answer rejected: ${answer.reason}`);
  if (!answerShouldBeValid && answer.valid)
    mismatches.push("expected the answer validator to reject the answer");
  return {
    id: goldenCase.id,
    met: mismatches.length === 0,
    mismatches,
    passed: result?.passed,
    riskLevel: result?.riskLevel,
    flaggedClaims:
      result === undefined
        ? []
        : result.claims.filter((claim) => isFailingVerdict(claim.verdict)).map((claim) => claim.text),
    answer,
    error,
  };
};

/**
 * The gate that blocked an answer, each answer counted once, under the first gate it failed. A verification
 * that could not run is an execution error: no source could be checked, but nothing was shown to be invented.
 */
const blockedBy = (outcome: GoldenCaseOutcome): "hallucination" | "error" | "ambiguity" | undefined => {
  if (outcome.error !== undefined) return "error";
  if (outcome.answer.valid || outcome.answer.failure === "format") return undefined;
  return outcome.answer.failure;
};

export const summarizeGolden = (
  cases: readonly GoldenCase[],
  outcomes: readonly GoldenCaseOutcome[],
): GoldenSummary => {
  const rateOf = (gate: "hallucination" | "error" | "ambiguity") =>
    ratio(outcomes.filter((outcome) => blockedBy(outcome) === gate).length, outcomes.length);
  const formatChecked = outcomes.filter((outcome, index) => {
    const passedGates = outcome.answer.valid || outcome.answer.failure === "format";
    return passedGates && cases[index]?.expected.answer !== undefined;
  });
  return {
    cases: outcomes.length,
    expectationsMet: ratio(outcomes.filter((outcome) => outcome.met).length, outcomes.length),
    verdictAccuracy: ratio(
      outcomes.filter(
        (outcome, index) => outcome.passed !== undefined && outcome.passed === cases[index]?.expected.passed,
      ).length,
      outcomes.length,
    ),
    hallucinationRate: rateOf("hallucination"),
    executionErrorRate: rateOf("error"),
    ambiguityRate: rateOf("ambiguity"),
    formatAccuracy: ratio(
      formatChecked.filter((outcome) => outcome.answer.valid).length,
      formatChecked.length,
    ),
    answerAccuracy: ratio(outcomes.filter((outcome) => outcome.answer.valid).length, outcomes.length),
  };
};

/** Verifies every case in order and judges it against its expectations. */
export const runGoldenSet = async (
  name: string,
  cases: readonly GoldenCase[],
  verify: VerifyFunction,
  layers?: readonly LayerName[],
): Promise<GoldenRun> => {
  const outcomes: GoldenCaseOutcome[] = [];
  for (const goldenCase of cases) {
    try {
      outcomes.push(judgeCase(goldenCase, await verify(requestFor(goldenCase, layers)), undefined));
    } catch (error) {
      outcomes.push(
        judgeCase(
          goldenCase,
          undefined,
          error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        ),
      );
    }
  }
  return { name, outcomes, summary: summarizeGolden(cases, outcomes) };
};
