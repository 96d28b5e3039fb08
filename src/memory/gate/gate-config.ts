import { defaultAiSynthesisSources, defaultTrustedSources, type TierPolicy } from "../tiers/tier-inputs.js";

export interface MemoryGateConfig {
  /** Run the duplicate check (true by default). Disabled, duplicates are not caught. */
  readonly enableDedup: boolean;
  /** Sources stored without a citation. */
  readonly trustedSources: readonly string[];
  /** Sources that mean a model wrote the claim. */
  readonly aiSynthesisSources: readonly string[];
  /** False by default: AI-synthesized claims never auto-approve without a verified citation. */
  readonly autoApproveAiSynthesis: boolean;
  /** True by default: a verified citation must also support the claim, or the claim is reviewed. */
  readonly verifyClaimRelevance: boolean;
  /** Time limit of the duplicate check; beyond it the check counts as failed (review). */
  readonly dedupTimeoutMs: number;
  /** Time limit of each citation check and relevance check; beyond it the citation is unverified. */
  readonly citationTimeoutMs: number;
  /** Validity given to memories without their own `validUntil`; none by default (they never expire). */
  readonly defaultValidityMs?: number;
}

export const defaultMemoryGateConfig: MemoryGateConfig = {
  enableDedup: true,
  trustedSources: defaultTrustedSources,
  aiSynthesisSources: defaultAiSynthesisSources,
  autoApproveAiSynthesis: false,
  verifyClaimRelevance: true,
  dedupTimeoutMs: 2_000,
  citationTimeoutMs: 5_000,
};

export const tierPolicyOf = (config: MemoryGateConfig): TierPolicy => ({
  trustedSources: new Set(config.trustedSources),
  aiSynthesisSources: new Set(config.aiSynthesisSources),
  autoApproveAiSynthesis: config.autoApproveAiSynthesis,
});
