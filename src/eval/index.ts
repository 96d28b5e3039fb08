/**
 * `veracity/eval`: measuring detection and validating golden answers, as plain async functions.
 */

export {
  type AnswerFailure,
  type AnswerSignals,
  type AnswerValidation,
  ExpectedAnswer,
  validateAnswer,
} from "./golden/answer-validator.js";
export { type GoldenCase, GoldenExpectation, GoldenSignals } from "./golden/golden-case.js";
export { type GoldenSet, loadGoldenSet } from "./golden/load-golden-set.js";
export {
  type GoldenCaseOutcome,
  type GoldenRun,
  type GoldenSummary,
  runGoldenSet,
} from "./golden/run-golden-set.js";
export { buildReport, type EvalReport, reportToJson } from "./report/json-report.js";
export { type EvalRun, type EvalRunOptions, runEvaluation, type VerifyFunction } from "./runner.js";
