import { Either, ParseResult, Schema } from "effect";
import { errorMessage } from "../../model/error-message.js";
import type { McpDependencies, McpTool } from "./tools.js";

/**
 * A tool answer in MCP's shape: the value as JSON text, and on success also as structured content (which
 * clients check against the tool's output schema; a failure has no structured content, only its text).
 */
export interface ToolAnswer {
  readonly [key: string]: unknown;
  readonly content: { type: "text"; text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** A failed call: `{ error: { code, message } }` as JSON text, flagged `isError` so the agent can correct itself. */
export const errorAnswer = (code: string, message: string): ToolAnswer => ({
  content: [{ type: "text", text: JSON.stringify({ error: { code, message } }) }],
  isError: true,
});

/**
 * A tool's value as a JSON object (a value that is not an object is wrapped as `{ value }`), with its JSON text:
 * the text a plain object's serialization already gave, so a large result is serialized once, not twice.
 */
const toJson = (value: unknown): { readonly json: Record<string, unknown>; readonly text: string } => {
  const text = JSON.stringify(value ?? null);
  const json = JSON.parse(text) as unknown;
  if (typeof json === "object" && json !== null && !Array.isArray(json))
    return { json: json as Record<string, unknown>, text };
  const wrapped = { value: json };
  return { json: wrapped, text: JSON.stringify(wrapped) };
};

const failureOf = (error: unknown): ToolAnswer => {
  if (typeof error === "object" && error !== null && "_tag" in error) {
    const tagged = error as { _tag: unknown; message?: unknown; reason?: unknown };
    return errorAnswer(String(tagged._tag), String(tagged.message || tagged.reason || tagged._tag));
  }
  return errorAnswer("INTERNAL_ERROR", errorMessage(error));
};

/** Decodes the arguments with the tool's Schema, runs it, and turns every failure into a structured error. */
export const callTool = async (
  tools: readonly McpTool[],
  name: string,
  args: unknown,
  dependencies: McpDependencies,
): Promise<ToolAnswer> => {
  dependencies.toolCalled?.();
  const tool = tools.find((candidate) => candidate.name === name);
  if (tool === undefined) return errorAnswer("UNKNOWN_TOOL", `no tool named "${name}"`);
  const decoded = Schema.decodeUnknownEither(tool.input, { onExcessProperty: "error" })(args ?? {});
  if (Either.isLeft(decoded))
    return errorAnswer("INVALID_INPUT", ParseResult.TreeFormatter.formatErrorSync(decoded.left));
  try {
    const output = toJson(await tool.run(decoded.right as never, dependencies));
    return { content: [{ type: "text", text: output.text }], structuredContent: output.json };
  } catch (error) {
    return failureOf(error);
  }
};
