/** Grounded memory ingestion: the public names (the lead re-exports them from src/index.ts). */
export {
  type CitationVerdict,
  CitationVerifier,
  type CitationVerifierService,
} from "./citations/citation-verifier.js";
export { type CitationKind, type DetectedCitation, detectCitations } from "./citations/detect-citations.js";
export {
  LocalCitationVerifierLayer,
  type LocalCitationVerifierOptions,
  makeLocalCitationVerifier,
} from "./citations/local-citation-verifier.js";
export {
  type DuplicateCheck,
  DuplicateChecker,
  type DuplicateCheckerService,
  defaultDuplicateThreshold,
} from "./dedup/duplicate-checker.js";
export { LshDuplicateCheckerLayer, makeLshDuplicateChecker } from "./dedup/lsh-duplicate-checker.js";
export { type DuplicateMatch, LshDedupIndex } from "./dedup/lsh-index.js";
export { candidateProbability, defaultLshShape, type LshShape, lshShapeFor } from "./dedup/minhash.js";
export {
  EmbeddingModel,
  type EmbeddingModelService,
  withSemanticDedup,
} from "./dedup/semantic-duplicate-checker.js";
export { makeStoreDuplicateChecker, StoreDuplicateCheckerLayer } from "./dedup/store-duplicate-checker.js";
export { jaccard, textJaccard, wordSet } from "./dedup/word-set.js";
export {
  CitationCheckError,
  DedupError,
  MemoryStoreError,
  MemoryStoreFullError,
  ReviewItemNotFoundError,
  ReviewQueueFullError,
} from "./errors.js";
export { Confidence, EvidenceObject, isExpired } from "./evidence/evidence-object.js";
export {
  type CreateMemoryGateOptions,
  createMemoryGate,
  type MemoryGateClient,
} from "./gate/create-memory-gate.js";
export { defaultMemoryGateConfig, type MemoryGateConfig } from "./gate/gate-config.js";
export {
  type IngestOutcome,
  MemoryGate,
  MemoryGateLayer,
  type MemoryGateService,
  makeMemoryGate,
} from "./gate/memory-gate.js";
export { validateClaim } from "./gate/validate-claim.js";
export { defaultWarmUp, type WarmUpOptions, type WarmUpReport } from "./gate/warm-up.js";
export { detectHedges, type HedgeMatch, type HedgeResult } from "./hedges/detect-hedges.js";
export type { HedgeAction, HedgeCategory } from "./hedges/hedge-patterns.js";
export { IngestionTier, Memory, MemoryCandidate, MemoryType, ValidationResult } from "./model.js";
export {
  type ClaimSupport,
  ClaimSupportChecker,
  type ClaimSupportCheckerService,
} from "./relevance/claim-support-checker.js";
export {
  GroundingSupportCheckerLayer,
  makeGroundingSupportChecker,
  makeLayerSupportChecker,
} from "./relevance/layer-support-checker.js";
export { MemoryStore, type MemoryStoreService } from "./store/memory-store.js";
export {
  AuditEntry,
  defaultMemoryLimits,
  type MemoryLimits,
  PendingMemory,
  type SearchHit,
} from "./store/records.js";
export { ReviewQueue, type ReviewQueueService } from "./store/review-queue.js";
export { migrateMemoryStore, SqlMemoryLayer } from "./store/sql-memory-layer.js";
export { decideTier, type TierDecision } from "./tiers/decide-tier.js";
export { defaultTierPolicy, defaultTrustedSources, type TierPolicy } from "./tiers/tier-inputs.js";
