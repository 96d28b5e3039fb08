/**
 * The value at the `p`th percentile of `values` (nearest rank, rounding up: the value below which `p`% of the
 * others lie), NaN for no values. `values` need not be sorted and is left as it is.
 */
export const percentile = (values: readonly number[], p: number): number =>
  percentileOfSorted(
    [...values].sort((a, b) => a - b),
    p,
  );

/** `percentile` of values already in ascending order, without sorting a copy. */
export const percentileOfSorted = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** The median as the benches report it: the middle value, the upper of the two middle ones for an even count. */
export const median = (values: readonly number[]): number => percentile(values, 50);
