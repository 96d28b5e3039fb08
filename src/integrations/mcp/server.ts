import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { packageVersion } from "../../model/package-version.js";
import { callTool } from "./call-tool.js";
import { inputJsonSchema, type McpDependencies, mcpTools, outputJsonSchema } from "./tools.js";

export const mcpServerInfo = { name: "veracity", version: packageVersion() } as const;

/** An MCP server exposing the Veracity tools; connect it to a transport (stdio or streamable HTTP). */
export const createVeracityMcpServer = (dependencies: McpDependencies): Server => {
  const server = new Server(mcpServerInfo, {
    capabilities: { tools: {} },
    instructions:
      "Check your answers before you commit them: `verify` a draft against its sources, `calculate` every " +
      "derived number, and store facts with `ingest_memory` (the gate refuses unsupported claims).",
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: mcpTools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: inputJsonSchema(tool),
      outputSchema: outputJsonSchema(tool),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    callTool(mcpTools, request.params.name, request.params.arguments, dependencies),
  );
  return server;
};
