import { fnv1a } from "../../model/fnv1a.js";
import { declaredSplit, type EvalRecord } from "../record.js";

/** Which split to pick a threshold on, and which to report on with that threshold unchanged. */
export interface SplitPlan {
  readonly tuneOn: string;
  readonly reportOn: string;
}

/**
 * The split a record belongs to: its `meta.split` when it declares one, otherwise a deterministic half of
 * the records by hash of the id goes to `tuneOn` and the other half to `reportOn`.
 */
export const assignSplit = (record: EvalRecord, plan: SplitPlan | undefined): string | undefined => {
  const declared = declaredSplit(record);
  if (declared !== undefined || plan === undefined) return declared;
  return fnv1a(record.id) % 2 === 0 ? plan.tuneOn : plan.reportOn;
};
