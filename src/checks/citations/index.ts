export {
  builtInCitationKinds,
  type CitationCheck,
  type CitationStatus,
  type ExtractedCitation,
  type VerifiedCitation,
} from "./citation.js";
export { type CustomKindConfig, customKindFromConfig } from "./custom-kind-config.js";
export { type Extraction, type ExtractOptions, extractCitations } from "./extract/extract.js";
export type { CitationPattern } from "./extract/patterns.js";
export {
  type BlockRangeChecksum,
  blockRangeChecksum,
  compareChecksums,
} from "./integrity/block-range-checksum.js";
export { type CitationsLayerOptions, type CustomCitationKind, makeCitationsLayer } from "./layer.js";
export { makeCitationsLayerProvider, type OpenedCitationsLayer, openCitationsLayer } from "./open-layer.js";
export {
  buildCorrectionPrompt,
  type CitationProblem,
  type CorrectionPromptInput,
} from "./prompts/correction.js";
export {
  buildGroundedAnalysisPrompt,
  type GroundedPromptInput,
  groundedGenerationSettings,
} from "./prompts/grounded-analysis.js";
export { type ComparisonOptions, compareWithTransaction } from "./records/compare-transaction.js";
export { type AssessedFinding, assessAnalysisReport, type ReportAssessment } from "./report/assess-report.js";
export { type ScoredFinding, scoreFinding, scoreReport } from "./report/confidence.js";
export { AnalysisReport, Citation, CitationType, decodeAnalysisReport, Finding } from "./report/schemas.js";
export { type EvidenceStore, openEvidenceStore, prepareEvidenceStore } from "./store/evidence-store.js";
export type { ImportSummary } from "./store/import-ethereum-etl.js";
export { findUncitedStatements, type UncitedOptions } from "./uncited/find-uncited.js";
export { type AdrVerifierOptions, makeAdrVerifier } from "./verifiers/adr-verifier.js";
export { type GitVerifierOptions, makeGitVerifier } from "./verifiers/git-verifier.js";
export { type HttpLookupOptions, makeHttpLookupVerifier } from "./verifiers/http-lookup-verifier.js";
export { type IssueVerifierOptions, makeIssueVerifier } from "./verifiers/issue-verifier.js";
export { type JsonRpcVerifierOptions, makeJsonRpcVerifier } from "./verifiers/jsonrpc-verifier.js";
export { makeStoreVerifier } from "./verifiers/store-verifier.js";
export { type HostResolver, makeUrlVerifier, type UrlVerifierOptions } from "./verifiers/url-verifier.js";
export type { CitationVerifier } from "./verifiers/verifier.js";
export { type VerificationPlan, verifyCitations } from "./verify-citations.js";
