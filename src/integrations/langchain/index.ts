export type { CheckedAnswer, Regenerate, RegenerationRequest } from "../shared/check-answer.js";
export type { MitigationMode } from "../shared/mitigation-mode.js";
export {
  maxDocumentsPerAnswer,
  type VeracityRunnableOptions,
  type VerifiableOutput,
  veracityRunnable,
} from "./verify-runnable.js";
