import { auditEntryForReview } from "../audit/entries-for.js";
import type { Memory } from "../memory/model.js";
import type { ServerDeps } from "./deps.js";

/**
 * Review decisions are recorded in the tamper-evident audit log, when the server has one. The decision is
 * already committed by then, so a failed append is logged as an error rather than reported as a failed one.
 */
/** Approves one of the reviewer's own items (the queue refuses anybody else's) and audits it. */
export const approveItem = async (deps: ServerDeps, queueId: string, reviewer: string): Promise<Memory> => {
  const memory = await deps.memory.approve(queueId, reviewer);
  await deps.auditTrail?.committed(
    auditEntryForReview(reviewer, queueId, { approve: { memoryId: memory.id } }),
  );
  return memory;
};

export const rejectItem = async (
  deps: ServerDeps,
  queueId: string,
  reviewer: string,
  reason: string,
): Promise<void> => {
  await deps.memory.reject(queueId, reviewer, reason);
  await deps.auditTrail?.committed(auditEntryForReview(reviewer, queueId, { reject: { reason } }));
};
