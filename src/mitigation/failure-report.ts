import type { ClaimFinding } from "../model/claim.js";
import { isFailingVerdict } from "../model/claim.js";

/** At most this many failing claims are described to a model; the rest are summed up in one line. */
export const maxDescribedFailures = 20;
const maxEvidenceChars = 400;

const quote = (text: string, limit: number): string =>
  JSON.stringify(text.length > limit ? `${text.slice(0, limit)}…` : text);

/** One failing claim as a line a model can act on: the claim, each problem, the expected value, the evidence. */
export const describeFailingClaim = (claim: ClaimFinding): string => {
  const problems = claim.issues.map(
    (issue) =>
      `${issue.code}: ${issue.message}${issue.expected === undefined ? "" : ` (expected: ${issue.expected})`}`,
  );
  const evidence = claim.evidence
    .slice(0, 2)
    .map(
      (passage) =>
        `${passage.relation ?? "related"} evidence from source ${passage.source}: ${quote(passage.text, maxEvidenceChars)}`,
    );
  return [
    `${claim.verdict.toUpperCase()} CLAIM: ${quote(claim.text, 1000)}`,
    ...(problems.length === 0 ? ["  no source supports it"] : problems.map((problem) => `  ${problem}`)),
    ...evidence.map((line) => `  ${line}`),
  ].join("\n");
};

export const failingClaims = (claims: readonly ClaimFinding[]): ClaimFinding[] =>
  claims.filter((claim) => isFailingVerdict(claim.verdict));

/** Every failing claim described, at most `maxDescribedFailures` of them. */
export const describeFailures = (claims: readonly ClaimFinding[]): string => {
  const failing = failingClaims(claims);
  const described = failing.slice(0, maxDescribedFailures).map(describeFailingClaim);
  const rest = failing.length - described.length;
  return [...described, ...(rest > 0 ? [`(${rest} more failing claims not listed)`] : [])].join("\n");
};
