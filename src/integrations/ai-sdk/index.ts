export { calculatorTool, calculatorToolName } from "../../checks/numbers/index.js";
export type {
  AnswerEvidence,
  CheckedAnswer,
  Regenerate,
  RegenerationRequest,
} from "../shared/check-answer.js";
export type { MitigationMode } from "../shared/mitigation-mode.js";
export { type CallSources, lastUserText, type SourcesRetriever } from "./call-evidence.js";
export { veracityMiddleware } from "./middleware.js";
export { type VeracityMiddlewareOptions, veracityMetadataKey } from "./options.js";
