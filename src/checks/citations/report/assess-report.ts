import { Effect } from "effect";
import type { ExtractedCitation, VerifiedCitation } from "../citation.js";
import { addressChecksumProblem } from "../extract/format-checks.js";
import { type VerificationPlan, verifyCitations } from "../verify-citations.js";
import { scoreFinding, scoreReport } from "./confidence.js";
import type { AnalysisReport, Citation, Finding } from "./schemas.js";

export interface AssessedFinding {
  readonly finding: Finding;
  readonly checks: readonly VerifiedCitation[];
  /** The finding's confidence, computed from how its citations verified (see `scoreFinding`). */
  readonly confidence: number;
}

export interface ReportAssessment {
  readonly findings: readonly AssessedFinding[];
  /** The report's confidence, weighted towards its weakest findings (see `scoreReport`). */
  readonly overallConfidence: number;
  /** True when every citation of every finding is VERIFIED. */
  readonly allVerified: boolean;
}

const normalized = (citation: Citation): string => {
  if (citation.type === "transaction" || citation.type === "address") return citation.value.toLowerCase();
  if (citation.type === "block" || citation.type === "adr" || citation.type === "issue")
    return String(Number.parseInt(citation.value, 10));
  return citation.value;
};

const asExtracted = (citation: Citation): ExtractedCitation => {
  const problem = citation.type === "address" ? addressChecksumProblem(citation.value) : undefined;
  return {
    kind: citation.type,
    value: normalized(citation),
    raw: citation.value,
    span: { start: 0, end: 0 },
    surroundingText: citation.context,
    ...(problem === undefined ? {} : { formatProblem: problem }),
  };
};

/**
 * Verifies every citation of a decoded report (one batch for the whole report) and scores each finding and
 * the report with `scoreFinding` and `scoreReport`, from what verification found rather than from the
 * confidence the model claimed.
 */
export const assessAnalysisReport = (
  report: AnalysisReport,
  plan: VerificationPlan,
): Effect.Effect<ReportAssessment> =>
  Effect.gen(function* () {
    const perFinding = report.findings.map((finding) => finding.citations.map(asExtracted));
    const checked = yield* verifyCitations(perFinding.flat(), plan);
    let offset = 0;
    const findings = report.findings.map((finding, index) => {
      const count = perFinding[index]?.length ?? 0;
      const checks = checked.slice(offset, offset + count);
      offset += count;
      const confidence = scoreFinding({
        isInference: finding.is_inference,
        citationKinds: checks.map(({ citation }) => citation.kind),
        statuses: checks.map(({ check }) => check.status),
      });
      return { finding, checks, confidence };
    });
    return {
      findings,
      overallConfidence: scoreReport(findings.map((entry) => entry.confidence)),
      allVerified: checked.every(({ check }) => check.status === "VERIFIED"),
    };
  });
