/**
 * Work a validation may spend tracing an answer's numbers, counted in source figures read and sums tried, shared
 * by the searches of one validation (see `maxTraceWork`). A search that finds `spent` past `limit` stops and
 * answers `exhausted`.
 */
export interface WorkMeter {
  spent: number;
  readonly limit: number;
}

/** A search that ran out of work before it could tell: not "none found". */
export const exhausted = Symbol("work exhausted");
