export { type AiSdkModels, aiSdkEmbeddings, aiSdkModelPort } from "./adapters/ai-sdk.js";
export { type CostMeter, makeCostMeter, withMeter, withRequestBudget } from "./budget.js";
export { type LLMCoreOptions, makeLLMService } from "./core.js";
export {
  type LLMError,
  ModelBudgetExceededError,
  ModelCallError,
  type ModelCallFailure,
  ModelOutputError,
  ModelTimeoutError,
} from "./errors.js";
export {
  LLMServiceFromConfig,
  llmServiceLayer,
  makeLLMServiceFromConfig,
  noModelReason,
  validateModelString,
} from "./live.js";
export { LLMService, type LLMServiceShape, type UsageReport } from "./llm-service.js";
export type {
  ChatMessage,
  Completion,
  CompletionRequest,
  EmbeddingResult,
  StructuredCompletion,
  StructuredRequest,
  TokenUsage,
} from "./messages.js";
export {
  type Environment,
  formatModelSpec,
  type ModelProviderName,
  type ModelSelection,
  type ModelSpec,
  modelStringFormats,
  parseModelString,
  resolveModelSpecs,
} from "./model-config.js";
export {
  type GenerateRequest,
  type Generation,
  type ModelPort,
  ProviderFailure,
  type RawEmbeddings,
} from "./model-port.js";
export { defaultPrices, type ModelPrice, type PriceTable } from "./prices.js";
export { defaultRetryPolicy, type RetryPolicy } from "./retry.js";
