import { auditEntryForOperation } from "../audit/entries-for.js";
import type { Memory } from "../memory/model.js";
import type { ServerDeps } from "./deps.js";
import { runEffect } from "./run-effect.js";

/**
 * Records a decision in the tamper-evident audit log, when the server has one. The decision is already
 * committed by then, so a failed append is logged as an error rather than reported as a failed decision.
 */
const recordDecision = async (deps: ServerDeps, actor: string, input: object, output: object) => {
  if (deps.auditLog === undefined) return;
  try {
    await runEffect(
      deps.auditLog.append(auditEntryForOperation({ operation: "review", actor, input, output })),
    );
  } catch (error) {
    deps.logger.error({ error: String((error as Error).message ?? error) }, "audit append failed");
  }
};

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
