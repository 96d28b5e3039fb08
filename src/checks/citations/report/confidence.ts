import type { CitationStatus } from "../citation.js";

/** What the confidence of a finding depends on. */
export interface ScoredFinding {
  readonly isInference: boolean;
  /** Kinds of the finding's citations (`transaction`, `address`...). */
  readonly citationKinds: readonly string[];
  /** Verification statuses of those citations. */
  readonly statuses: readonly CitationStatus[];
  /** Factual statements of the finding with no citation near them. */
  readonly uncitedStatements?: number;
}

/**
 * A finding's confidence, from how well its citations held up: start at 1; x0.7 for an inference; x0.8 for
 * fewer than two citations, x1.1 for five or more; x0.5 per MISMATCH, x0.1 per NOT_FOUND (and per ERROR: a
 * citation that could not be checked is not support); x0.3 per uncited statement; x1.1 for two or more
 * independent citation kinds; clamped to [0, 1].
 */
export const scoreFinding = (finding: ScoredFinding): number => {
  let score = 1;
  if (finding.isInference) score *= 0.7;
  const count = finding.citationKinds.length;
  if (count < 2) score *= 0.8;
  else if (count >= 5) score *= 1.1;
  for (const status of finding.statuses) {
    if (status === "MISMATCH") score *= 0.5;
    else if (status === "NOT_FOUND" || status === "ERROR") score *= 0.1;
  }
  score *= 0.3 ** (finding.uncitedStatements ?? 0);
  if (new Set(finding.citationKinds).size >= 2) score *= 1.1;
  return Math.min(1, Math.max(0, score));
};

/**
 * A report's confidence, kept conservative: a weighted mean of the finding scores sorted from lowest, with
 * weights 1, 1/2, 1/3...: the weakest findings weigh most, so one poorly cited finding pulls the report down.
 * No findings: 0.
 */
export const scoreReport = (findingScores: readonly number[]): number => {
  if (findingScores.length === 0) return 0;
  const sorted = [...findingScores].sort((a, b) => a - b);
  let weighted = 0;
  let weights = 0;
  sorted.forEach((score, index) => {
    const weight = 1 / (index + 1);
    weighted += score * weight;
    weights += weight;
  });
  return weighted / weights;
};
