import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createVeracityMcpServer } from "./server.js";
import type { McpDependencies } from "./tools.js";

export interface McpStdioOptions {
  /** Called once the client has finished the session's handshake (its `initialized` notification). */
  readonly onInitialized?: () => void;
}

/**
 * Serves the MCP tools over standard input and output until the input ends. Nothing else may write to
 * standard output meanwhile: it carries the protocol.
 */
export const serveMcpStdio = async (
  dependencies: McpDependencies,
  input: Readable = process.stdin,
  output: Writable = process.stdout,
  options: McpStdioOptions = {},
): Promise<void> => {
  const server = createVeracityMcpServer(dependencies);
  if (options.onInitialized !== undefined) server.oninitialized = options.onInitialized;
  const transport = new StdioServerTransport(input, output);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    input.once("end", () => resolve());
    input.once("close", () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
};
