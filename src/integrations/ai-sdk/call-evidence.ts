import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from "@ai-sdk/provider";
import { calculatorToolName } from "../../checks/numbers/tool/calculator-tool.js";
import type { AnswerEvidence } from "../shared/check-answer.js";

/** Sources given with one call: `providerOptions: { veracity: { sources: [...], context: "..." } }`. */
export interface CallSources {
  readonly sources?: readonly string[];
  readonly context?: string;
}

/** Looks up sources for a call (a retriever): receives the user's last message and the whole call. */
export type SourcesRetriever = (
  question: string | undefined,
  params: LanguageModelV3CallOptions,
) => Promise<readonly string[]> | readonly string[];

export const maxSourcesPerCall = 100;

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/** The text of the last user message: the question the answer is checked for. */
export const lastUserText = (prompt: LanguageModelV3Prompt): string | undefined => {
  for (let index = prompt.length - 1; index >= 0; index--) {
    const message = prompt[index];
    if (message?.role !== "user") continue;
    const text = message.content
      .flatMap((part) => (part.type === "text" ? [part.text] : []))
      .join("\n")
      .trim();
    if (text.length > 0) return text;
  }
  return undefined;
};

/** Reads `providerOptions.veracity`; anything malformed is an error, never silently ignored. */
export const callSources = (params: LanguageModelV3CallOptions): CallSources => {
  const options = params.providerOptions?.veracity;
  if (options === undefined) return {};
  const { sources, context } = options as { sources?: unknown; context?: unknown };
  if (sources !== undefined && !isStringArray(sources))
    throw new TypeError("providerOptions.veracity.sources must be an array of strings");
  if (context !== undefined && typeof context !== "string")
    throw new TypeError("providerOptions.veracity.context must be a string");
  return { ...(sources === undefined ? {} : { sources }), ...(context === undefined ? {} : { context }) };
};

/** Most calculator results of one call taken as evidence (the latest are kept). */
export const maxCalculatorResults = 1_000;

/** `{ expression, result }` of a calculator output, as JSON or as its JSON text; undefined for anything else. */
const calculatorResult = (value: unknown): { expression: string; result: string } | undefined => {
  let parsed = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  const { expression, result } = (parsed ?? {}) as { expression?: unknown; result?: unknown };
  return typeof expression === "string" && typeof result === "string" ? { expression, result } : undefined;
};

/**
 * The results of the calculator tool (`calculate`) earlier in the conversation, one line each
 * ("calculate: (0.50 - 0.45) / 0.45 * 100 = 11.1111..."): numbers the model took from the tool are evidence.
 * Refused expressions (an `error` instead of a `result`) are not.
 */
export const calculatorEvidence = (prompt: LanguageModelV3Prompt): string | undefined => {
  const lines: string[] = [];
  for (const message of prompt) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result" || part.toolName !== calculatorToolName) continue;
      const output = part.output;
      const found =
        output.type === "json" || output.type === "text" ? calculatorResult(output.value) : undefined;
      if (found) lines.push(`${calculatorToolName}: ${found.expression} = ${found.result}`);
    }
  }
  return lines.length === 0 ? undefined : lines.slice(-maxCalculatorResults).join("\n");
};

/**
 * The evidence of a call: its own sources, then the configured ones or the retriever's, then the calculator's
 * results recorded in the conversation.
 */
export const evidenceOfCall = async (
  params: LanguageModelV3CallOptions,
  configured: readonly string[] | SourcesRetriever | undefined,
): Promise<AnswerEvidence> => {
  const question = lastUserText(params.prompt);
  const fromCall = callSources(params);
  const fromOptions =
    typeof configured === "function" ? await configured(question, params) : (configured ?? []);
  const given = [...(fromCall.sources ?? []), ...fromOptions];
  if (given.length > maxSourcesPerCall)
    throw new RangeError(`at most ${maxSourcesPerCall} sources per call (got ${given.length})`);
  const calculator = calculatorEvidence(params.prompt);
  const sources = calculator === undefined ? given : [...given, calculator];
  return {
    sources,
    ...(fromCall.context === undefined ? {} : { context: fromCall.context }),
    ...(question === undefined ? {} : { question }),
  };
};
