/**
 * What the bundles of the build share (scripts/bundle-worker.mjs, scripts/bundle-cli.mjs): the packages left
 * outside them, and the line that gives an ES module bundle a `require` for the CommonJS code inside it.
 */

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

/** CommonJS dependencies inside an ES module bundle still call require() for Node's built-ins. */
export const requireBanner = {
  js: 'import { createRequire as __veracityCreateRequire } from "node:module"; const require = __veracityCreateRequire(import.meta.url);',
};
