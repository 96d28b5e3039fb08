export {
  createWorkerPoolVerifier,
  defaultVerifyWorkers,
  defaultWorkerResourceLimits,
  type PoolWarmUpReport,
  type WorkerPoolOptions,
  type WorkerPoolVerifier,
} from "./create-worker-pool-verifier.js";
export { VerifierBusyError } from "./errors.js";
export { defaultKeptSourcesLimits, type KeptSourcesLimits } from "./kept-sources.js";
export type { WorkerVerifierConfig } from "./messages.js";
export { runAsQueueOwner } from "./queue-owner.js";
