import type { IngestionTier } from "../model.js";
import type { CitationOutcome } from "../tiers/tier-inputs.js";
import type { Confidence, EvidenceObject } from "./evidence-object.js";

export interface EvidenceParts {
  readonly claim: string;
  readonly captureTime: Date;
  readonly tier: IngestionTier;
  readonly source: string;
  readonly memoryType: string;
  readonly trustedSource: boolean;
  readonly citations: readonly CitationOutcome[];
  readonly validUntil?: Date;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

/** Metadata keys the gate and the review queue write; a claim's own metadata cannot set them. */
const reservedMetadataKeys: readonly string[] = ["source", "memoryType", "reviewedBy", "reviewedAt"];

const withoutReserved = (metadata: Readonly<Record<string, unknown>> = {}): Record<string, unknown> =>
  Object.fromEntries(Object.entries(metadata).filter(([key]) => !reservedMetadataKeys.includes(key)));

const confidenceOf = (tier: IngestionTier): Confidence =>
  tier === "auto-approve" ? "high" : tier === "flag-review" ? "medium" : "low";

/**
 * The evidence object of a claim: high confidence only when it auto-approves, its source id the first
 * verified citation (`ADR-003`, `commit:a1b2c3d`, a URL) or else the trusted source it came from. The
 * claim's metadata is kept except the keys the gate owns (`source`, `memoryType`, `reviewedBy`...), so a
 * caller cannot pass a claim off as reviewed or as coming from another source.
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
    metadata: { ...withoutReserved(parts.metadata), source: parts.source, memoryType: parts.memoryType },
  };
};
