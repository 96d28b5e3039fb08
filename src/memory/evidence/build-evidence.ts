import type { IngestionTier } from "../model.js";
import type { CitationOutcome } from "../tiers/tier-inputs.js";
import type { Confidence, EvidenceObject } from "./evidence-object.js";

export interface EvidenceParts {
  readonly claim: string;
  readonly captureTime: Date;
  readonly tier: IngestionTier;
  readonly source: string;
  readonly trustedSource: boolean;
  readonly citations: readonly CitationOutcome[];
  readonly validUntil?: Date;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

const confidenceOf = (tier: IngestionTier): Confidence =>
  tier === "auto-approve" ? "high" : tier === "flag-review" ? "medium" : "low";

/**
 * The evidence object of a claim: high confidence only when it auto-approves, its source id the first
 * verified citation (`ADR-003`, `commit:a1b2c3d`, a URL) or else the trusted source it came from.
 */
export const buildEvidence = (parts: EvidenceParts): EvidenceObject => {
  const verified = parts.citations.find((citation) => citation.status === "verified");
  const sourceId =
    verified !== undefined && verified.status === "verified"
      ? verified.sourceId
      : parts.trustedSource
        ? `source:${parts.source}`
        : undefined;
  return {
    claim: parts.claim,
    captureTime: parts.captureTime,
    confidence: confidenceOf(parts.tier),
    ...(sourceId === undefined ? {} : { sourceId }),
    ...(parts.validUntil === undefined ? {} : { validityHorizon: parts.validUntil }),
    metadata: { source: parts.source, ...parts.metadata },
  };
};
