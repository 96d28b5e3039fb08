/**
 * Veracity's public API: verify an answer, build a verifier from a configuration, write a check of your own,
 * and reach each capability's main entry point. Everything else lives behind a documented subpath:
 *
 * - `veracity/model`: every domain schema (requests, results, findings, layer names, risk profiles).
 * - `veracity/verification`: the verifier as Effect services (service, app layer, settings, events, risk).
 * - `veracity/text`: sentence splitting and claim segmentation.
 * - `veracity/grounding`, `veracity/numbers`, `veracity/citations`, `veracity/model-backed`: each check
 *   family's layer and parts.
 * - `veracity/llm`: the model port and its Vercel AI SDK adapter.
 * - `veracity/memory`: the grounded memory gate, its store and review queue.
 * - `veracity/calibration`, `veracity/eval`: Platt scaling, the answer combiner, evaluation runs.
 * - `veracity/mitigation`, `veracity/correction`: what to do with a failed answer.
 * - `veracity/audit`, `veracity/metrics`, `veracity/storage`: the audit trail, Prometheus metrics, SQL.
 * - `veracity/server`, `veracity/mcp`, `veracity/ai-sdk`, `veracity/langchain`, `veracity/testing`.
 */

// Verify an answer: the Promise API and the verifier a configuration describes.
export { type BuiltVerifier, buildVerifier, type VerifierFlags } from "./assembly/build-verifier.js";
// Each capability's main entry points.
export { extractCitations, openEvidenceStore, verifyCitations } from "./checks/citations/index.js";
export type { RepositoryCitations } from "./checks/citations/verifiers/repository-citations.js";
export { CalculationRecorder, calculate, calculatorTool, validateNumbers } from "./checks/numbers/index.js";
export { correctAnswer } from "./correction/index.js";
export { runEvaluation } from "./eval/runner.js";
export {
  createVerifier,
  type Verifier,
  type VerifierConfig,
  type VerifierTools,
} from "./facade/create-verifier.js";
export {
  defaultVerificationWarmUp,
  type VerificationWarmUpOptions,
  type VerificationWarmUpReport,
  warmUpVerifier,
} from "./facade/warm-up-verifier.js";
export {
  createWorkerPoolVerifier,
  defaultKeptSourcesLimits,
  defaultVerifyWorkers,
  defaultWorkerResourceLimits,
  type KeptSourcesLimits,
  type PoolWarmUpReport,
  runAsQueueOwner,
  VerifierBusyError,
  type WorkerPoolOptions,
  type WorkerPoolVerifier,
  type WorkerVerifierConfig,
} from "./facade/worker-pool/index.js";
export { LLMService, makeLLMService } from "./llm/index.js";
export {
  createMemoryGate,
  detectHedges,
  type MemoryGateClient,
  type WarmUpOptions,
  type WarmUpReport,
} from "./memory/index.js";
// What a verification takes and gives.
export type { CacheStats } from "./model/cache-stats.js";
export { ClaimFinding, ClaimIssue, ClaimVerdict, Evidence } from "./model/claim.js";
export {
  CalibrationError,
  ConfigError,
  InputError,
  InsufficientSourcesError,
  VerificationError,
  VerificationTimeoutError,
} from "./model/errors.js";
// Write a check of your own: the contract every layer implements.
export type { Claim, EvidenceSource, LayerInput, VerificationLayer } from "./model/layer.js";
export { LayerName } from "./model/layer-name.js";
export { LayerResult } from "./model/layer-result.js";
export type { LeanVerificationResult } from "./model/lean-result.js";
export { Mitigation } from "./model/mitigation.js";
export { VerificationRequest } from "./model/request.js";
export { VerificationResult } from "./model/result.js";
export { RiskLevel } from "./model/risk.js";
export { Span } from "./model/span.js";
export type { JsonReading, OffThreadJsonReader } from "./text/json-text.js";
export { defaultSettings, type VerificationSettings } from "./verification/config.js";
export type { EvidenceFocus, FocusReport } from "./verification/focus-evidence.js";
