import type { IngestionTier } from "../model.js";
import type { CitationOutcome, TierInputs, TierPolicy } from "./tier-inputs.js";

export interface TierDecision {
  readonly tier: IngestionTier;
  readonly reason: string;
}

const block = (reason: string): TierDecision => ({ tier: "block", reason });
const review = (reason: string): TierDecision => ({ tier: "flag-review", reason });
const approve = (reason: string): TierDecision => ({ tier: "auto-approve", reason });

const ids = (outcomes: readonly CitationOutcome[]) => outcomes.map((outcome) => outcome.id).join(", ");

/**
 * The tier of a claim, by rules taken in order: a blocking hedge or a duplicate blocks; a technical hedge or
 * a failed duplicate check sends it to review; then every detected citation must be verified (an unverified
 * or unchecked one sends the claim to review even from a trusted source) and support the claim; without a
 * citation, AI synthesis is reviewed unless `autoApproveAiSynthesis` is set, a trusted source or a decision
 * or preference stated in conversation is approved, and anything else is reviewed. Fail closed throughout:
 * nothing that could not be checked approves.
 */
export const decideTier = (inputs: TierInputs, policy: TierPolicy): TierDecision => {
  const { hedges, duplicate, citations, source, memoryType } = inputs;
  if (hedges.action === "block") return block("Contains personal speculation");
  if (duplicate.status === "duplicate") return block("Duplicate of existing memory");
  if (hedges.action === "review") return review("Contains technical hedges - needs verification");
  if (duplicate.status === "failed") return review("Dedup check failed - cannot verify uniqueness");

  if (citations.length > 0) {
    const unverified = citations.filter(
      (c) => c.status === "unverified" || c.status === "check-failed" || c.status === "skipped",
    );
    if (unverified.length > 0) return review(`Citation detected but not verified: ${ids(unverified)}`);
    const irrelevant = citations.filter((c) => c.status === "not-supporting");
    if (irrelevant.length > 0)
      return review(`Citation verified but does not support the claim: ${ids(irrelevant)}`);
    const unjudged = citations.filter((c) => c.status === "relevance-failed");
    if (unjudged.length > 0) return review(`Citation relevance could not be checked: ${ids(unjudged)}`);
    return approve("Has verified citation");
  }

  if (policy.aiSynthesisSources.has(source))
    return policy.autoApproveAiSynthesis
      ? approve("AI synthesis auto-approved by configuration")
      : review("AI synthesis without a verified citation");
  if (policy.trustedSources.has(source)) return approve(`From trusted source: ${source}`);
  if (memoryType === "decision" && source === "conversation")
    return approve("Decision stated in conversation");
  if (memoryType === "preference" && (source === "conversation" || source === "chat"))
    return approve("Preference stated by user");
  return review("Ungrounded assertion needs verification");
};
