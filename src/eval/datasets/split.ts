import { declaredSplit, type EvalRecord } from "../record.js";

/** Which split to pick a threshold on, and which to report on with that threshold unchanged. */
export interface SplitPlan {
  readonly tuneOn: string;
  readonly reportOn: string;
}

/** 32-bit FNV-1a of a string: stable across runs and platforms. */
export const fnv1a = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
};

/**
 * The split a record belongs to: its `meta.split` when it declares one, otherwise a deterministic half of
 * the records by hash of the id goes to `tuneOn` and the other half to `reportOn`.
 */
export const assignSplit = (record: EvalRecord, plan: SplitPlan | undefined): string | undefined => {
  const declared = declaredSplit(record);
  if (declared !== undefined || plan === undefined) return declared;
  return fnv1a(record.id) % 2 === 0 ? plan.tuneOn : plan.reportOn;
};
