import type { ClaimFinding, ClaimIssue, ClaimVerdict } from "../../model/claim.js";
import type { Claim } from "../../model/layer.js";
import type { Span } from "../../model/span.js";
import { lastStartingBy } from "../../text/span-index.js";
import type { VerifiedCitation } from "./citation.js";
import type { RecordComparison } from "./records/compare-transaction.js";
import { scoreFinding } from "./report/confidence.js";
import type { UncitedStatement } from "./uncited/find-uncited.js";

export type CitationIssueCode =
  | "CITATION_NOT_FOUND"
  | "CITATION_MISMATCH"
  | "CITATION_ERROR"
  | "UNCITED_CLAIM";

const issue = (code: CitationIssueCode, message: string, span: Span, expected?: string): ClaimIssue => ({
  code,
  message,
  span,
  layer: "citations",
  ...(expected === undefined ? {} : { expected }),
});

const verdictOf = (issues: readonly ClaimIssue[]): ClaimVerdict => {
  const codes = new Set(issues.map((entry) => entry.code));
  // A record that says otherwise, or a cited record the store does not hold (a fabricated reference), is
  // evidence against the claim; a claim that cites nothing is only unsupported.
  if (codes.has("CITATION_MISMATCH") || codes.has("CITATION_NOT_FOUND")) return "contradicted";
  if (codes.has("UNCITED_CLAIM")) return "unsupported";
  if (codes.has("CITATION_ERROR")) return "unverifiable";
  return "supported";
};

/** Everything the layer learned about one claim. */
export interface ClaimCitations {
  readonly claim: Claim;
  readonly citations: readonly VerifiedCitation[];
  readonly comparison: RecordComparison | undefined;
  readonly uncited: readonly UncitedStatement[];
}

/**
 * Groups verified citations and uncited statements by claim: each goes to the last claim starting at or
 * before it. A citation the segmentation left outside every claim still lands on the nearest claim, so a
 * failing citation is never dropped.
 */
export const groupByClaim = (
  claims: readonly Claim[],
  citations: readonly VerifiedCitation[],
  uncited: readonly UncitedStatement[],
): { claim: Claim; citations: VerifiedCitation[]; uncited: UncitedStatement[] }[] => {
  const groups = [...claims]
    .sort((a, b) => a.span.start - b.span.start)
    .map((claim) => ({ claim, citations: [] as VerifiedCitation[], uncited: [] as UncitedStatement[] }));
  const spans = groups.map((group) => group.claim.span);
  const owner = (offset: number) => groups[Math.max(0, lastStartingBy(spans, offset))];
  for (const entry of citations) owner(entry.citation.span.start)?.citations.push(entry);
  for (const statement of uncited) owner(statement.span.start)?.uncited.push(statement);
  return groups;
};

/** The claim-level finding of the citations layer: one issue per failed citation, difference or uncited statement. */
export const claimFinding = ({ claim, citations, comparison, uncited }: ClaimCitations): ClaimFinding => {
  const issues: ClaimIssue[] = [];
  for (const { citation, check } of citations) {
    if (check.status === "NOT_FOUND")
      issues.push(issue("CITATION_NOT_FOUND", `${citation.raw}: ${check.detail}`, citation.span));
    else if (check.status === "ERROR")
      issues.push(
        issue("CITATION_ERROR", `${citation.raw}: could not be checked: ${check.detail}`, citation.span),
      );
  }
  for (const difference of comparison?.differences ?? [])
    issues.push(
      issue(
        "CITATION_MISMATCH",
        `${difference.attribute}: the claim says ${difference.claimed}, the record says ${difference.recorded}`,
        difference.span,
        difference.recorded,
      ),
    );
  for (const attribute of comparison?.unchecked ?? [])
    issues.push(
      issue(
        "CITATION_ERROR",
        `${attribute.attribute} could not be compared: ${attribute.reason}`,
        attribute.span,
      ),
    );
  for (const statement of uncited)
    issues.push(
      issue("UNCITED_CLAIM", `"${statement.text}" states a fact with no citation near it`, statement.span),
    );

  const statuses = citations.map(({ check }) => check.status);
  for (const _ of comparison?.differences ?? []) statuses.push("MISMATCH");
  const score = scoreFinding({
    isInference: claim.kind === "inference",
    citationKinds: citations.map(({ citation }) => citation.kind),
    statuses,
    uncitedStatements: uncited.length,
  });
  return {
    text: claim.text,
    span: claim.span,
    kind: claim.kind,
    verdict: verdictOf(issues),
    score,
    evidence: [],
    issues,
    layers: ["citations"],
  };
};
