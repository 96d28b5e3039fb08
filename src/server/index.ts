/** `veracity/server`: the HTTP service. */

export { openMemoryGateOnSql } from "../assembly/memory-gate-on-sql.js";
export { createServerApp } from "./app.js";
export {
  type ResolvedServerConfig,
  readServerConfigFile,
  resolveServerConfig,
  ServerConfigFile,
} from "./config.js";
export { defaultServerLimits, type ServerDeps, type ServerLimits } from "./deps.js";
export {
  authenticateApiKey,
  createApiKey,
  hashApiKey,
  keyHolder,
  migrateServerTables,
  revokeApiKeys,
} from "./keys/api-keys.js";
export { ApiProblem } from "./middleware/problem/index.js";
export { buildOpenApiDocument } from "./openapi.js";
export { type RunningServer, type ServerOptions, startServer } from "./start.js";
