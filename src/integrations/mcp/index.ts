export { callTool, errorAnswer, type ToolAnswer } from "./call-tool.js";
export {
  type McpDependencyOptions,
  type McpWarmUpOptions,
  type McpWarmUpReport,
  openMcpDependencies,
  stoppedByToolCall,
} from "./dependencies.js";
export {
  type McpAuthenticator,
  type McpCaller,
  type McpHttpOptions,
  type McpHttpServer,
  startMcpHttpServer,
} from "./http.js";
export { defaultAllowedHosts, defaultAllowedOrigins } from "./request-origin.js";
export { createVeracityMcpServer, mcpServerInfo } from "./server.js";
export { type McpStdioOptions, serveMcpStdio } from "./stdio.js";
export {
  CalculateInput,
  CheckGroundingInput,
  IngestMemoryInput,
  mcpLimits,
  SearchMemoryInput,
  ValidateNumbersInput,
  VerifyCitationsInput,
  VerifyInput,
} from "./tool-inputs.js";
export { inputJsonSchema, type McpDependencies, type McpTool, mcpTools } from "./tools.js";
