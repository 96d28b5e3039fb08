export { type CorrectAnswerParts, correctAnswer } from "./correct-answer.js";
export {
  type CorrectionFailure,
  type CorrectionFailureKind,
  correctionFailures,
  maxCorrectionFailures,
} from "./failures.js";
export {
  type CorrectionIteration,
  type CorrectionLoopError,
  type CorrectionLoopOptions,
  type CorrectionOutcome,
  defaultInsufficientEvidenceAnswer,
  defaultMaxCorrectionIterations,
  maxCorrectionIterationsLimit,
  runCorrectionLoop,
} from "./loop.js";
export { buildLoopCorrectionPrompt } from "./prompt.js";
