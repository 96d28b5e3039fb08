/** Retry settings of the core: only retryable failures (429, 5xx, network) are retried. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 2). */
  readonly maxRetries: number;
  /** First backoff delay; doubled on each retry (default 250 ms). */
  readonly baseDelayMs: number;
  /** Upper bound of a backoff delay, and of an honoured Retry-After (default 10 s). */
  readonly maxDelayMs: number;
}

export const defaultRetryPolicy: RetryPolicy = { maxRetries: 2, baseDelayMs: 250, maxDelayMs: 10_000 };

/** Delay before retry number `retry` (0-based): the provider's Retry-After when given, else exponential. */
export const retryDelayMs = (policy: RetryPolicy, retry: number, retryAfterMs: number | undefined): number =>
  Math.min(policy.maxDelayMs, retryAfterMs ?? policy.baseDelayMs * 2 ** retry);

/**
 * Parses `retry-after-ms` or `retry-after` (seconds or an HTTP date) into milliseconds.
 * Returns undefined when absent or unreadable.
 */
export const parseRetryAfter = (
  headers: Readonly<Record<string, string | undefined>> | undefined,
  now: number = Date.now(),
): number | undefined => {
  if (headers === undefined) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  const milliseconds = Number(lower["retry-after-ms"]);
  if (lower["retry-after-ms"] !== undefined && Number.isFinite(milliseconds) && milliseconds >= 0) {
    return milliseconds;
  }
  const value = lower["retry-after"]?.trim();
  if (value === undefined || value === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};
