/** Nearest-rank percentile: the smallest value with at least `percent`% of values at or below it. */
export const percentile = (values: readonly number[], percent: number): number | undefined => {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((percent / 100) * sorted.length));
  return sorted[rank - 1];
};

export interface LatencyMetrics {
  readonly p50Ms: number | undefined;
  readonly p95Ms: number | undefined;
}

export const latencyMetrics = (latenciesMs: readonly number[]): LatencyMetrics => ({
  p50Ms: percentile(latenciesMs, 50),
  p95Ms: percentile(latenciesMs, 95),
});
