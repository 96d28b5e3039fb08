/**
 * Veracity's public API, by name. Subpaths: `veracity/testing` (scripted models, a local provider server),
 * `veracity/citations` (citation extraction, verifiers, report schemas and the report scorer), `veracity/eval`
 * (evaluation runs, golden sets and the answer validator).
 */

export {
  AuditBacklogError,
  type GroupCommitAppender,
  makeGroupCommitAppender,
} from "./audit/group-commit.js";
// The audit trail: hash-chained entries, group commit, chain verification
export * from "./audit/index.js";
// Calibration: Platt scaling applied and fitted, calibration files and the store
export * from "./calibration/index.js";
// Checks
export {
  assessClaim,
  buildSourceIndex,
  defaultGroundingOptions,
  type GroundingOptions,
  makeGroundingLayer,
} from "./checks/grounding/index.js";
export {
  type BlockRangeChecksum,
  blockRangeChecksum,
  compareChecksums,
  type EvidenceStore,
  extractCitations,
  findUncitedStatements,
  makeCitationsLayer,
  openCitationsLayer,
  openEvidenceStore,
  verifyCitations,
} from "./citations/index.js";
export * from "./correction/index.js";
// Evaluation
export { runEvaluation } from "./eval/runner.js";
// The Promise API
export {
  createVerifier,
  type Verifier,
  type VerifierConfig,
  type VerifierTools,
} from "./facade/create-verifier.js";
export {
  createWorkerPoolVerifier,
  defaultVerifyWorkers,
  VerifierBusyError,
  type WorkerPoolOptions,
  type WorkerVerifierConfig,
} from "./facade/worker-pool/index.js";
// Model-backed layers and the LLM port
export {
  EmptyFactualMemory,
  FactualMemory,
  InMemoryFactualMemory,
  makeFactDecompositionLayer,
  makeModelLayers,
  makeModelRiskModel,
  makeMultiSourceLayer,
  makeNliLayer,
  makeSelfConsistencyLayer,
  makeSemanticEntropyLayer,
} from "./layers/index.js";
export {
  aiSdkEmbeddings,
  aiSdkModelPort,
  LLMService,
  type LLMServiceShape,
  ModelBudgetExceededError,
  ModelCallError,
  ModelOutputError,
  ModelTimeoutError,
  makeLLMService,
  makeLLMServiceFromConfig,
  parseModelString,
  withRequestBudget,
} from "./llm/index.js";
// Grounded memory ingestion
export {
  type CreateMemoryGateOptions,
  createMemoryGate,
  decideTier,
  detectHedges,
  EvidenceObject,
  MemoryGate,
  type MemoryGateClient,
  MemoryStoreFullError,
  ReviewItemNotFoundError,
  ReviewQueueFullError,
  ValidationResult as MemoryValidationResult,
  validateClaim,
} from "./memory/index.js";
// Metrics (prom-client)
export * from "./metrics/index.js";
// Mitigation and the correction loop
export * from "./mitigation/index.js";
// Verification: the model
export {
  ClaimFinding,
  ClaimIssue,
  ClaimKind,
  ClaimVerdict,
  Evidence,
} from "./model/claim.js";
export {
  CalibrationError,
  ConfigError,
  InputError,
  InsufficientSourcesError,
  VerificationError,
  VerificationTimeoutError,
} from "./model/errors.js";
export {
  EvidenceLayerName,
  LayerName,
  ModelLayerName,
  VerificationLayerName,
} from "./model/layer-name.js";
export { LayerResult, LayerResultSchema, SkippedLayer } from "./model/layer-result.js";
export { Mitigation, MitigationAction, MitigationSchema } from "./model/mitigation.js";
export { VerificationRequest, VerificationRequestSchema } from "./model/request.js";
export { VerificationResult, VerificationResultSchema } from "./model/result.js";
export { RiskLevel, RiskProfile, RiskProfiles } from "./model/risk.js";
export { Span } from "./model/span.js";
// Numeric grounding
export {
  type Calculation,
  CalculationError,
  CalculationRecorder,
  calculate,
  calculationRules,
  calculatorTool,
  evaluateExpression,
  extractNumbers,
  makeNumbersLayer,
  type NumbersLayerOptions,
  numericPromptFragments,
  singleAggregateLookupRule,
  sourceIntegrityRules,
  ValidationResult as NumericValidationResult,
  validateNumbers,
} from "./numbers/index.js";
// Storage
export { openSqlClient, runMigrations, SqlClient, StorageError } from "./storage/index.js";
// Text
export { segmentClaims } from "./text/claims.js";
export { type Sentence, splitSentences } from "./text/sentences.js";
// The Effect service
export { makeVerificationAppLayer, type VerificationAppOptions } from "./verification/app-layer.js";
export {
  type CalibrationModels,
  Calibrator,
  type CalibratorShape,
  makeCalibrator,
} from "./verification/calibrator.js";
export { defaultSettings, VerificationConfig, type VerificationSettings } from "./verification/config.js";
// Configuration sources
export { resolveSettings, settingsFromEnv, settingsFromFile } from "./verification/config-sources.js";
export { type Decision, decide } from "./verification/decision.js";
export {
  EventBus,
  type EventBusShape,
  type EventHandler,
  type VerificationEvent,
} from "./verification/events.js";
export type {
  Claim,
  EvidenceSource,
  LayerInput,
  Readiness,
  VerificationLayer,
} from "./verification/layer.js";
export { LayerRegistry, makeLayerRegistry } from "./verification/registry.js";
export { RiskAssessor, RiskModel, type RiskModelShape } from "./verification/risk-assessor.js";
export { assessHeuristicRisk } from "./verification/risk-heuristics.js";
export { VerificationService, type VerificationServiceShape } from "./verification/service.js";
