export interface CitationProblem {
  readonly status: "NOT_FOUND" | "MISMATCH" | "ERROR";
  /** The cited value, e.g. a transaction hash. */
  readonly value: string;
  readonly detail: string;
}

export interface CorrectionPromptInput {
  readonly originalResponse: string;
  readonly problems: readonly CitationProblem[];
  /** Factual statements that carried no citation. */
  readonly uncitedStatements: readonly string[];
  readonly evidence: unknown;
}

/**
 * The prompt for the next round of the correction loop: each invalid citation, data mismatch, unverifiable
 * citation and uncited statement, then the original response and the evidence again, with the instruction to
 * regenerate the response citing only what the evidence contains.
 */
export const buildCorrectionPrompt = (input: CorrectionPromptInput): string => {
  const details = [
    ...input.problems.map((problem) =>
      problem.status === "NOT_FOUND"
        ? `INVALID CITATION: ${problem.value} does not exist. Remove this reference or find the correct citation in the evidence.`
        : problem.status === "MISMATCH"
          ? `DATA MISMATCH: ${problem.value} - ${problem.detail}. Correct the claim to match the actual data.`
          : `UNVERIFIABLE CITATION: ${problem.value} could not be checked (${problem.detail}). Cite only what the evidence contains.`,
    ),
    ...input.uncitedStatements.map(
      (statement) =>
        `UNCITED CLAIM: '${statement}' requires a citation. Add a [TX:], [ADDR:] or [BLOCK:] citation, or rephrase it as inference.`,
    ),
  ];
  return [
    "Your previous response contained validation errors that must be corrected:",
    "",
    "ERRORS:",
    ...details.map((detail) => `- ${detail}`),
    "",
    "ORIGINAL RESPONSE:",
    input.originalResponse,
    "",
    "AVAILABLE EVIDENCE:",
    JSON.stringify(input.evidence, null, 2),
    "",
    "Please regenerate your response, correcting all errors above.",
    "Remember: only cite data that exists in the AVAILABLE EVIDENCE section.",
  ].join("\n");
};
