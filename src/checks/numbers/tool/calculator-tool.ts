import { createRequire } from "node:module";
import type { Tool } from "ai";
import { evaluateExpression } from "../calculator/calculate.js";
import { type CalculatorLimits, defaultCalculatorLimits } from "../calculator/limits.js";
import type { CalculationRecorder } from "./recorder.js";

export const calculatorToolName = "calculate";

const description =
  "Evaluate an arithmetic expression exactly (decimal arithmetic) and return the full-precision result. " +
  "Use it for every derived number: differences, sums, ratios, percent changes ((new - old) / old * 100), " +
  "averages. Supports + - * / % ^ and parentheses, and abs, round(x, n), floor, ceil, min, max, sum, avg, " +
  "sqrt, log, exp, pow. Numbers only: no variables.";

/** The JSON schema of the tool's input: `{ "expression": "(0.50 - 0.45) / 0.45 * 100" }`. */
export const calculatorInputSchema = {
  type: "object",
  properties: {
    expression: {
      type: "string",
      description: "The arithmetic expression, e.g. (0.50 - 0.45) / 0.45 * 100",
      maxLength: defaultCalculatorLimits.maxLength,
    },
  },
  required: ["expression"],
  additionalProperties: false,
} as const;

export interface CalculatorInput {
  readonly expression: string;
}

/** What the tool returns to the model: the result, or why the expression was refused. */
export type CalculatorOutput =
  | { readonly expression: string; readonly result: string }
  | { readonly expression: string; readonly error: string; readonly reason: string };

const isCalculatorInput = (value: unknown): value is CalculatorInput =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { expression?: unknown }).expression === "string" &&
  Object.keys(value).every((key) => key === "expression");

/**
 * Runs one tool call: evaluates the expression and, when a recorder is given, records the result so that the
 * numbers validator knows which figures of the answer came from the tool. Refusals are returned, not thrown,
 * so the model can correct its expression; they are never recorded.
 */
export const runCalculatorCall = (
  input: CalculatorInput,
  recorder?: CalculationRecorder,
  limits: Partial<CalculatorLimits> = {},
): CalculatorOutput => {
  const outcome = evaluateExpression(input.expression, limits);
  if (outcome._tag === "Left") {
    return { expression: input.expression, error: outcome.left.message, reason: outcome.left.reason };
  }
  recorder?.record({ expression: input.expression, result: outcome.right.result });
  return { expression: input.expression, result: outcome.right.result };
};

/**
 * The AI SDK's `jsonSchema` and `tool`, required when the first calculator tool is made, so that importing
 * Veracity does not load the AI SDK. `calculatorTool` returns its tool synchronously, hence `require` (the
 * `ai` package ships a CommonJS build); the schema it makes is recognised by any copy of the SDK, which marks
 * schemas with a registered symbol (`Symbol.for("vercel.ai.schema")`).
 */
const aiSdk = (): Pick<typeof import("ai"), "jsonSchema" | "tool"> =>
  createRequire(import.meta.url)("ai") as typeof import("ai");

/** The calculator as an AI SDK tool (`generateText({ tools: { calculate: calculatorTool(recorder) } })`). */
export const calculatorTool = (
  recorder?: CalculationRecorder,
  limits: Partial<CalculatorLimits> = {},
): Tool<CalculatorInput, CalculatorOutput> => {
  const { jsonSchema, tool } = aiSdk();
  return tool<CalculatorInput, CalculatorOutput>({
    description,
    inputSchema: jsonSchema<CalculatorInput>(calculatorInputSchema as never, {
      validate: (value) =>
        isCalculatorInput(value)
          ? { success: true, value }
          : { success: false, error: new Error('expected { "expression": string }') },
    }),
    execute: async (input) => runCalculatorCall(input, recorder, limits),
  });
};

/** The OpenAI function-calling definition (Chat Completions `tools` entry). */
export const openAiCalculatorTool = {
  type: "function",
  function: { name: calculatorToolName, description, parameters: calculatorInputSchema, strict: true },
} as const;

/** The Anthropic tool definition (Messages API `tools` entry). */
export const anthropicCalculatorTool = {
  name: calculatorToolName,
  description,
  input_schema: calculatorInputSchema,
} as const;
