import type { Client } from "@modelcontextprotocol/sdk/client/index.js";

/** Calls a tool and returns its structured content and error flag (for tests and examples). */
export const callForStructured = async (
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ isError: boolean; structured: Record<string, unknown> }> => {
  const answer = await client.callTool({ name, arguments: args });
  return {
    isError: answer.isError === true,
    structured: (answer.structuredContent ?? {}) as Record<string, unknown>,
  };
};
