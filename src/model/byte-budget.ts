import { makeSharedBudget, type Reservation, type SharedBudget } from "./shared-budget.js";

/**
 * The request bytes a server holds at once, across every connection: each request that carries a body
 * reserves its size before the body is read, and gives it back when it is done with it. A body is read whole
 * into memory before it is parsed, so without a total a client with many connections, each sending a body a
 * little under the size limit and then waiting, could make the process hold connections times that limit. Each
 * API key may hold only a share of it.
 */
export type ByteBudget = SharedBudget;

/** How many request-body bytes a server holds at once, in all and for one key. */
export interface BodyBudgetLimits {
  /** Request-body bytes held at once across every connection (never below the body size limit). */
  readonly maxBodyBytesInFlight: number;
  /**
   * Request-body bytes one API key's requests hold at once (never below the body size limit, never above the
   * total), so one key cannot fill the total: by default a quarter of the default total.
   */
  readonly maxBodyBytesInFlightPerKey: number;
}

/**
 * The budget of a server whose bodies are at most `maxBodyBytes`: a body it admits always fits when nothing
 * else is in flight, so neither the total nor a key's share is below that size, and a share is never above
 * the total.
 */
export const bodyBudgetOf = (limits: BodyBudgetLimits, maxBodyBytes: number): ByteBudget => {
  const limit = Math.max(limits.maxBodyBytesInFlight, maxBodyBytes);
  return makeSharedBudget(limit, Math.min(limit, Math.max(limits.maxBodyBytesInFlightPerKey, maxBodyBytes)));
};

/**
 * The bytes a request's body may take: its declared `content-length`, or the size limit when it is sent in
 * chunks (its length is known only once read); 0 for a request without a body.
 */
export const bodyBytesToReserve = (
  contentLength: string | undefined,
  transferEncoding: string | undefined,
  maxBodyBytes: number,
): number => {
  if (transferEncoding !== undefined) return maxBodyBytes;
  if (contentLength === undefined) return 0;
  const declared = Number.parseInt(contentLength, 10);
  return Number.isFinite(declared) && declared > 0 ? Math.min(declared, maxBodyBytes) : 0;
};

/**
 * Why the body budget refused a request, as its client reads it: the key's share or the server's total it
 * would have gone past, and when to try again.
 */
export const bodyBudgetRefusal = (
  budget: ByteBudget,
  full: Extract<Reservation, { held: false }>["full"],
): string =>
  full === "holder"
    ? `one key's requests hold at most ${budget.limitPerHolder} bytes of request bodies at once; try again when one has been answered`
    : `the server holds ${budget.limit} bytes of request bodies at once; try again shortly`;
