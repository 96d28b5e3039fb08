import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/**
 * Calls a tool and returns its structured content and error flag (for tests and examples). A failed call has
 * no structured content; its `{ error: { code, message } }` is read from the JSON text instead.
 */
const jsonText = (content: unknown): unknown => {
  const first = Array.isArray(content)
    ? (content[0] as { type?: string; text?: string } | undefined)
    : undefined;
  if (first?.type !== "text" || first.text === undefined) return {};
  try {
    return JSON.parse(first.text);
  } catch {
    return {};
  }
};

export const callForStructured = async (
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; structured: Record<string, unknown> }> => {
  const answer = await client.callTool({ name, arguments: args });
  return {
    isError: answer.isError === true,
    structured: (answer.structuredContent ?? jsonText(answer.content)) as Record<string, unknown>,
  };
};
