export {
  asksForSingleAggregate,
  type DecomposedTotal,
  findDecomposedTotals,
} from "./aggregate/decomposed-total.js";
export { singleAggregateLookupRule } from "./aggregate/single-aggregate-rule.js";
export { type Calculation, calculate, evaluateExpression } from "./calculator/calculate.js";
export { CalculationError, CalculationFailure } from "./calculator/errors.js";
export { type CalculatorLimits, defaultCalculatorLimits } from "./calculator/limits.js";
export { makeSourcesCache } from "./derive/source-cache.js";
export { extractNumbers } from "./extract/extract-numbers.js";
export { type ExtractedNumber, type ExtractOptions, isQuantity, type NumberKind } from "./extract/types.js";
export { makeNumbersLayer, type NumbersLayerOptions } from "./layer/numbers-layer.js";
export {
  calculationRules,
  numericPromptFragments,
  sourceIntegrityRules,
} from "./prompts/prompt-fragments.js";
export {
  anthropicCalculatorTool,
  type CalculatorInput,
  type CalculatorOutput,
  calculatorInputSchema,
  calculatorTool,
  calculatorToolName,
  openAiCalculatorTool,
  runCalculatorCall,
} from "./tool/calculator-tool.js";
export { CalculationRecorder, type RecordedCalculation } from "./tool/recorder.js";
export { type ValidateInput, type ValidateOptions, validateNumbers } from "./validate/validate-numbers.js";
export {
  InlineCalculation,
  NumberCheck,
  NumberStatus,
  PartialAggregation,
  ValidationResult,
} from "./validate/validation-result.js";
