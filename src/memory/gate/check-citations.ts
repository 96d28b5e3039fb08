import { Effect } from "effect";
import type { CitationVerifierService } from "../citations/citation-verifier.js";
import { type DetectedCitation, sourceIdOf } from "../citations/detect-citations.js";
import type { ClaimSupportCheckerService } from "../relevance/claim-support-checker.js";
import type { CitationOutcome } from "../tiers/tier-inputs.js";

export interface CitationCheckOptions {
  readonly verifyClaimRelevance: boolean;
  readonly timeoutMs: number;
}

/** Words that only point at the citation that follows ("per", "see", "in commit"): not part of the claim. */
const pointerBefore =
  /(?:\b(?:as per|per|see|according to|cf\.?|via|in|from|at|by|fixed in|ref)\s+)?(?:\b(?:the\s+)?(?:commit|adr|issue|pr|pull request|url|page|link|docs?)\s+)?$/i;

/** The claim without its citations: what the cited artifact must support ("Per ADR-003, we use X" → ", we use X"). */
export const claimWithoutCitations = (claim: string, citations: readonly DetectedCitation[]): string => {
  let text = claim;
  for (const { span } of [...citations].sort((a, b) => b.span.start - a.span.start)) {
    const pointer = pointerBefore.exec(text.slice(0, span.start));
    const start = pointer === null ? span.start : span.start - pointer[0].length;
    text = text.slice(0, start) + text.slice(span.end);
  }
  return text;
};

/**
 * Verifies one citation and, when configured, that the artifact supports the claim. Never fails: an outage
 * or a timeout becomes an outcome that cannot approve.
 */
export const checkCitation = (
  citation: DetectedCitation,
  claim: string,
  verifier: CitationVerifierService,
  support: ClaimSupportCheckerService,
  options: CitationCheckOptions,
): Effect.Effect<CitationOutcome> =>
  Effect.gen(function* () {
    const verdict = yield* verifier.verify(citation).pipe(Effect.timeout(options.timeoutMs));
    if (!verdict.verified) return { id: citation.id, status: "unverified" as const, reason: verdict.reason };
    const verified = { id: citation.id, status: "verified" as const, sourceId: sourceIdOf(citation) };
    if (!options.verifyClaimRelevance) return { ...verified, relevance: "not-checked-by-config" as const };
    // Without the artifact's text only a claim that says nothing beyond its citation can be supported.
    const judged = yield* support
      .check(claim, verdict.content ?? "")
      .pipe(Effect.timeout(options.timeoutMs), Effect.either);
    if (judged._tag === "Left")
      return { id: citation.id, status: "relevance-failed" as const, reason: judged.left.message };
    return judged.right.supported
      ? { ...verified, relevance: "supported" as const }
      : { id: citation.id, status: "not-supporting" as const, reason: judged.right.reason };
  }).pipe(
    Effect.catchAll((error) =>
      Effect.succeed({
        id: citation.id,
        status: "check-failed" as const,
        reason: error.message,
      } satisfies CitationOutcome),
    ),
  );
