import type { ClaimFinding, ClaimIssue } from "../model/claim.js";
import { isFailingVerdict } from "../model/claim.js";
import type { VerificationResult } from "../model/result.js";

/** What the model is told went wrong, one kind per check family. */
export type CorrectionFailureKind =
  | "invalid-citation"
  | "unverifiable-citation"
  | "mismatched-value"
  | "orphan-number"
  | "uncited-claim"
  | "unsupported-claim"
  | "contradicted-claim";

export interface CorrectionFailure {
  readonly kind: CorrectionFailureKind;
  /** The claim as the model wrote it. */
  readonly claim: string;
  readonly message: string;
  /** The value the evidence holds, when a check knows it. */
  readonly expected?: string;
  /** Evidence passages that bear on the claim (at most two, trimmed). */
  readonly evidence: readonly string[];
}

/** At most this many failures are sent back; a longer list is cut (the loop says how many were left out). */
export const maxCorrectionFailures = 30;
const maxEvidenceChars = 400;

const kindOf = (issue: ClaimIssue, claim: ClaimFinding): CorrectionFailureKind => {
  const code = issue.code;
  if (code === "CITATION_NOT_FOUND") return "invalid-citation";
  if (code === "CITATION_ERROR") return "unverifiable-citation";
  if (code === "UNCITED_CLAIM") return "uncited-claim";
  if (code.includes("MISMATCH") || code === "PARTIAL_AGGREGATION") return "mismatched-value";
  if (code.includes("NUMBER")) return "orphan-number";
  return claim.verdict === "contradicted" ? "contradicted-claim" : "unsupported-claim";
};

const trimmed = (text: string) =>
  text.length > maxEvidenceChars ? `${text.slice(0, maxEvidenceChars)}…` : text;

/**
 * The specific failures of one verification: every issue of every failing claim (an invalid citation, a
 * mismatched value, an orphan number, an uncited or unsupported claim), each with its evidence. A failing
 * claim without issues still becomes one "unsupported" failure, so nothing is dropped silently.
 */
export const correctionFailures = (result: VerificationResult): CorrectionFailure[] =>
  result.claims
    .filter((claim) => isFailingVerdict(claim.verdict))
    .flatMap((claim) => {
      const evidence = claim.evidence.slice(0, 2).map((passage) => trimmed(passage.text));
      if (claim.issues.length === 0)
        return [
          {
            kind:
              claim.verdict === "contradicted"
                ? ("contradicted-claim" as const)
                : ("unsupported-claim" as const),
            claim: claim.text,
            message: "no source supports this claim",
            evidence,
          },
        ];
      return claim.issues.map((issue) => ({
        kind: kindOf(issue, claim),
        claim: claim.text,
        message: issue.message,
        ...(issue.expected === undefined ? {} : { expected: issue.expected }),
        evidence,
      }));
    });
