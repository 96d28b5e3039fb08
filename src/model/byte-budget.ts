/**
 * The request bytes a server holds at once, across every connection: each request that carries a body
 * reserves its size before the body is read, and gives it back when it is done with it. A body is read whole
 * into memory before it is parsed, so without a total a client with many connections, each sending a body a
 * little under the size limit and then waiting, could make the process hold connections times that limit.
 *
 * Each holder (an API key) may take only a share of the total, so one key sending slowly cannot fill it and
 * shut every other key out; to do that takes as many keys as shares fit in the total.
 */
export interface ByteBudget {
  /** Bytes reserved now, by every holder. */
  readonly reserved: () => number;
  /** Most bytes held at once. */
  readonly limit: number;
  /** Most bytes one holder holds at once. */
  readonly limitPerHolder: number;
  /**
   * Reserves `bytes` for `holder` (undefined: a caller with no key, held to the total only). Answers the
   * function that gives them back (once), or which limit they did not fit.
   */
  readonly reserve: (bytes: number, holder: string | undefined) => Reservation;
}

export type Reservation =
  | { readonly held: true; readonly release: () => void }
  | { readonly held: false; readonly full: "total" | "holder" };

const makeByteBudget = (limit: number, limitPerHolder: number): ByteBudget => {
  let reserved = 0;
  // Only holders with bytes reserved have an entry, so it never has more entries than requests in flight.
  const byHolder = new Map<string, number>();
  return {
    limit,
    limitPerHolder,
    reserved: () => reserved,
    reserve: (bytes, holder) => {
      if (reserved + bytes > limit) return { held: false, full: "total" };
      const holderHas = holder === undefined ? 0 : (byHolder.get(holder) ?? 0);
      if (holder !== undefined && holderHas + bytes > limitPerHolder) return { held: false, full: "holder" };
      reserved += bytes;
      if (holder !== undefined) byHolder.set(holder, holderHas + bytes);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        reserved -= bytes;
        if (holder === undefined) return;
        const left = (byHolder.get(holder) ?? 0) - bytes;
        if (left > 0) byHolder.set(holder, left);
        else byHolder.delete(holder);
      };
      return { held: true, release };
    },
  };
};

/** How many request-body bytes a server holds at once, in all and for one key. */
export interface BodyBudgetLimits {
  readonly maxBodyBytesInFlight: number;
  readonly maxBodyBytesInFlightPerKey: number;
}

/**
 * The budget of a server whose bodies are at most `maxBodyBytes`: a body it admits always fits when nothing
 * else is in flight, so neither the total nor a key's share is below that size, and a share is never above
 * the total.
 */
export const bodyBudgetOf = (limits: BodyBudgetLimits, maxBodyBytes: number): ByteBudget => {
  const limit = Math.max(limits.maxBodyBytesInFlight, maxBodyBytes);
  return makeByteBudget(limit, Math.min(limit, Math.max(limits.maxBodyBytesInFlightPerKey, maxBodyBytes)));
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
