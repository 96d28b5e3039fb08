/** What the bundles of the build share (scripts/bundle-worker.mjs, scripts/bundle-cli.mjs). */

/**
 * Packages that load native code, WebAssembly, worker files or optional provider SDKs: they stay outside a bundle
 * and load from node_modules when the code needs them.
 */
export const external = [
  "@electric-sql/pglite",
  "pg",
  "viem",
  "ai",
  "@ai-sdk/*",
  "@modelcontextprotocol/sdk",
  "@modelcontextprotocol/sdk/*",
  "@langchain/core",
  "@langchain/core/*",
  "pino",
  "prom-client",
];
