import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { packageVersion } from "../../model/package-version.js";
import { callTool } from "./call-tool.js";
import { inputJsonSchema, type McpDependencies, mcpTools, outputJsonSchema } from "./tools.js";

export const mcpServerInfo = { name: "veracity", version: packageVersion() } as const;

/**
 * One JSON Schema validator for every server of the process. The SDK builds a new Ajv instance for each server
 * it is not given one, and the HTTP transport builds a server per request: that was about a tenth of the main
 * thread's work per `verify` call. These servers validate nothing with it (it checks elicitation answers, which
 * the tools never ask for), and Ajv's compiled schemas are safe to share.
 */
let sharedValidator: AjvJsonSchemaValidator | undefined;

/** An MCP server exposing the Veracity tools; connect it to a transport (stdio or streamable HTTP). */
export const createVeracityMcpServer = (dependencies: McpDependencies): Server => {
  sharedValidator ??= new AjvJsonSchemaValidator();
  const server = new Server(mcpServerInfo, {
    capabilities: { tools: {} },
    jsonSchemaValidator: sharedValidator,
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
