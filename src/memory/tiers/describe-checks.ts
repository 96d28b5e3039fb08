import type { TierInputs, TierPolicy } from "./tier-inputs.js";

export interface CheckList {
  readonly passed: readonly string[];
  readonly failed: readonly string[];
}

/**
 * The ValidationResult's `checksPassed` / `checksFailed`: a snake_case label per check, with its detail after
 * a colon where it has one (`no_speculation`, `hedge_words_detected: maybe`, `citation_verified: ADR-003`).
 */
export const describeChecks = (inputs: TierInputs, policy: TierPolicy): CheckList => {
  const passed: string[] = [];
  const failed: string[] = [];
  if (inputs.hedges.hedges.length === 0) passed.push("no_speculation");
  else failed.push(`hedge_words_detected: ${inputs.hedges.hedges.map((hedge) => hedge.phrase).join(", ")}`);

  const duplicate = inputs.duplicate;
  if (duplicate.status === "unique") passed.push("not_duplicate");
  else if (duplicate.status === "duplicate")
    failed.push(`duplicate_of: ${duplicate.memoryId} (similarity ${duplicate.similarity.toFixed(3)})`);
  else if (duplicate.status === "failed") failed.push(`dedup_check_failed: ${duplicate.reason}`);
  else failed.push("dedup_disabled");

  if (inputs.citations.length > 0) passed.push("citation_present");
  for (const citation of inputs.citations) {
    if (citation.status === "verified") {
      passed.push(`citation_verified: ${citation.id}`);
      if (citation.relevance === "supported") passed.push(`citation_supports_claim: ${citation.id}`);
    } else if (citation.status === "unverified")
      failed.push(`citation_unverified: ${citation.id} (${citation.reason})`);
    else if (citation.status === "check-failed")
      failed.push(`citation_check_failed: ${citation.id} (${citation.reason})`);
    else if (citation.status === "not-supporting") {
      passed.push(`citation_verified: ${citation.id}`);
      failed.push(`citation_does_not_support_claim: ${citation.id} (${citation.reason})`);
    } else if (citation.status === "relevance-failed") {
      passed.push(`citation_verified: ${citation.id}`);
      failed.push(`citation_relevance_unchecked: ${citation.id} (${citation.reason})`);
    } else failed.push(`citation_not_checked: ${citation.id}`);
  }
  if (policy.trustedSources.has(inputs.source) && !policy.aiSynthesisSources.has(inputs.source))
    passed.push(`trusted_source: ${inputs.source}`);
  return { passed, failed };
};
