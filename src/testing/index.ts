export { bagOfWordsEmbedding } from "./bag-of-words-embedding.js";
export { type ChatRequestBody, factCheckAnswer } from "./fact-check-answers.js";
export { makeTestRepository, type TestRepository } from "./git-repository.js";
export {
  type ProviderRoute,
  type ProviderServer,
  type ProviderServerOptions,
  type RecordedRequest,
  type ReplayResponse,
  startProviderServer,
} from "./provider-server.js";
export {
  anthropicError,
  anthropicMessage,
  anthropicToolUse,
  malformedBody,
  openAIChatCompletion,
  openAIEmbeddings,
  openAIError,
  openAIToolCall,
  stalled,
} from "./recordings.js";
export {
  makeScriptedModel,
  type RecordedCall,
  type RecordedEmbedCall,
  type RecordedGenerateCall,
  type Script,
  type ScriptedAnswer,
  ScriptedFailure,
  type ScriptedModel,
  type ScriptedModelOptions,
  ScriptedStall,
  scriptedLLM,
} from "./scripted-model.js";
