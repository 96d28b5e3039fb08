import type { HedgeResult } from "../hedges/detect-hedges.js";
import type { MemoryType } from "../model.js";

export type DuplicateOutcome =
  | { readonly status: "unique" }
  | { readonly status: "duplicate"; readonly similarity: number; readonly memoryId: string }
  | { readonly status: "failed"; readonly reason: string }
  | { readonly status: "disabled" };

/** What the citation step found, per detected citation. */
export type CitationOutcome =
  | {
      readonly id: string;
      readonly status: "verified";
      readonly sourceId: string;
      readonly relevance: "supported" | "not-checked-by-config";
    }
  | { readonly id: string; readonly status: "unverified"; readonly reason: string }
  | { readonly id: string; readonly status: "check-failed"; readonly reason: string }
  | { readonly id: string; readonly status: "not-supporting"; readonly reason: string }
  | { readonly id: string; readonly status: "relevance-failed"; readonly reason: string }
  | { readonly id: string; readonly status: "skipped" };

export interface TierInputs {
  readonly hedges: HedgeResult;
  readonly duplicate: DuplicateOutcome;
  readonly citations: readonly CitationOutcome[];
  readonly source: string;
  readonly memoryType: MemoryType;
}

export interface TierPolicy {
  /** Sources approved without a citation (default: user, documentation, adr, commit, manual). */
  readonly trustedSources: ReadonlySet<string>;
  /** Sources that mean "a model wrote this". */
  readonly aiSynthesisSources: ReadonlySet<string>;
  /** False by default: AI-synthesized claims never auto-approve without a verified citation. */
  readonly autoApproveAiSynthesis: boolean;
}

export const defaultTrustedSources: readonly string[] = ["user", "documentation", "adr", "commit", "manual"];
export const defaultAiSynthesisSources: readonly string[] = ["ai_synthesis", "ai", "agent", "llm", "model"];

export const defaultTierPolicy: TierPolicy = {
  trustedSources: new Set(defaultTrustedSources),
  aiSynthesisSources: new Set(defaultAiSynthesisSources),
  autoApproveAiSynthesis: false,
};
