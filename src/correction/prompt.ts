import type { CorrectionFailure, CorrectionFailureKind } from "./failures.js";
import { maxCorrectionFailures } from "./failures.js";

const headings: Record<CorrectionFailureKind, string> = {
  "invalid-citation": "INVALID CITATION",
  "unverifiable-citation": "UNVERIFIABLE CITATION",
  "mismatched-value": "DATA MISMATCH",
  "orphan-number": "UNSUPPORTED NUMBER",
  "uncited-claim": "UNCITED CLAIM",
  "unsupported-claim": "UNSUPPORTED CLAIM",
  "contradicted-claim": "CONTRADICTED CLAIM",
};

const advice: Record<CorrectionFailureKind, string> = {
  "invalid-citation": "Remove this reference or cite the correct record from the evidence.",
  "unverifiable-citation": "Cite only what the evidence contains.",
  "mismatched-value": "Correct the claim to match the evidence.",
  "orphan-number": "Use the number the evidence gives, or remove it.",
  "uncited-claim": "Add a citation to the evidence, or rephrase it as an inference.",
  "unsupported-claim": "Remove it, or restate only what the evidence supports.",
  "contradicted-claim": "The evidence says otherwise: correct it or remove it.",
};

/** Evidence is repeated in every correction round; this bounds the prompt. */
const maxEvidenceChars = 20_000;

const evidenceSection = (sources: readonly string[]): string => {
  let remaining = maxEvidenceChars;
  const parts: string[] = [];
  for (const [index, source] of sources.entries()) {
    if (remaining <= 0) break;
    const part = source.length > remaining ? `${source.slice(0, remaining)}…` : source;
    remaining -= part.length;
    parts.push(`[${index}] ${part}`);
  }
  return parts.length === 0 ? "(none given)" : parts.join("\n");
};

const failureLine = (failure: CorrectionFailure): string =>
  [
    `- ${headings[failure.kind]}: ${JSON.stringify(failure.claim)}: ${failure.message}.`,
    failure.expected === undefined ? "" : ` The evidence says: ${failure.expected}.`,
    ` ${advice[failure.kind]}`,
    ...failure.evidence.map((passage) => `\n    evidence: ${JSON.stringify(passage)}`),
  ].join("");

/**
 * The prompt for the next round of the correction loop, for every kind of failing check: each failure with
 * its evidence, the previous answer and the evidence again, then the instruction to state and cite only what
 * the evidence contains. `reasons` covers a failed verification with no claim-level failure (a low overall
 * confidence).
 */
export const buildLoopCorrectionPrompt = (input: {
  readonly previousAnswer: string;
  readonly failures: readonly CorrectionFailure[];
  readonly reasons: readonly string[];
  readonly sources: readonly string[];
}): string => {
  const listed = input.failures.slice(0, maxCorrectionFailures);
  const left = input.failures.length - listed.length;
  return [
    "Your previous response failed verification and must be corrected:",
    "",
    "ERRORS:",
    ...listed.map(failureLine),
    ...(left > 0 ? [`- (${left} more errors of the same kinds not listed)`] : []),
    ...(listed.length === 0 ? input.reasons.map((reason) => `- ${reason}`) : []),
    "",
    "PREVIOUS RESPONSE:",
    input.previousAnswer,
    "",
    "AVAILABLE EVIDENCE:",
    evidenceSection(input.sources),
    "",
    "Please write the response again, correcting every error above. Only state and cite what the AVAILABLE",
    "EVIDENCE contains. Reply with the corrected response only.",
  ].join("\n");
};
