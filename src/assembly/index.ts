/**
 * The composition root: turns one configuration (a settings file, flags or options, and `VERACITY_*`
 * variables) into the parts every surface runs. The CLI, the HTTP server, the MCP server and the AI SDK and
 * LangChain integrations build their verifier, memory gate and fact memory here, so one configuration means
 * one behaviour on every surface; the surfaces only translate their protocol to and from these calls.
 */
export {
  type BuiltVerifier,
  buildVerifier,
  readCalibrationFile,
  type VerifierFlags,
} from "./build-verifier.js";
export { defaultVerifier } from "./default-verifier.js";
export { openStoreFactMemory } from "./fact-memory.js";
export { lazyVerifier } from "./lazy-verifier.js";
export { openMemoryGate } from "./memory-gate.js";
