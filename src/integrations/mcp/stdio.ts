import type { Readable, Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { createVeracityMcpServer } from "./server.js";
import type { McpDependencies } from "./tools.js";

/**
 * Serves the MCP tools over standard input and output until the input ends. Nothing else may write to
 * standard output meanwhile: it carries the protocol.
 */
export const serveMcpStdio = async (
  dependencies: McpDependencies,
  input: Readable = process.stdin,
  output: Writable = process.stdout,
): Promise<void> => {
  const server = createVeracityMcpServer(dependencies);
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
