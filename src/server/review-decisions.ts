import type { Memory } from "../memory/model.js";
import type { ServerDeps } from "./deps.js";

/**
 * Records a decision in the tamper-evident audit log, when the server has one. The decision is already
 * committed by then, so a failed append is logged as an error rather than reported as a failed decision.
 */
const recordDecision = async (deps: ServerDeps, actor: string, input: object, output: object) =>
  deps.auditTrail?.committed("review", actor, input, output);

/** Approves one of the reviewer's own items (the queue refuses anybody else's) and audits it. */
export const approveItem = async (deps: ServerDeps, queueId: string, reviewer: string): Promise<Memory> => {
  const memory = await deps.memory.approve(queueId, reviewer);
  await recordDecision(deps, reviewer, { queueId, decision: "approve" }, { memoryId: memory.id });
  return memory;
};

export const rejectItem = async (
  deps: ServerDeps,
  queueId: string,
  reviewer: string,
  reason: string,
): Promise<void> => {
  await deps.memory.reject(queueId, reviewer, reason);
  await recordDecision(deps, reviewer, { queueId, decision: "reject" }, { reason });
};
