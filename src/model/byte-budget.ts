/**
 * The request bytes a server holds at once, across every connection: each request that carries a body
 * reserves its size before the body is read, and gives it back when it is done with it. A body is read whole
 * into memory before it is parsed, so without a total a client with many connections, each sending a body a
 * little under the size limit and then waiting, could make the process hold connections times that limit.
 */
export interface ByteBudget {
  /** Bytes reserved now. */
  readonly reserved: () => number;
  /** Most bytes held at once. */
  readonly limit: number;
  /** Reserves `bytes`, or answers undefined when they do not fit; the function returned gives them back (once). */
  readonly reserve: (bytes: number) => (() => void) | undefined;
}

const makeByteBudget = (limit: number): ByteBudget => {
  let reserved = 0;
  return {
    limit,
    reserved: () => reserved,
    reserve: (bytes) => {
      if (reserved + bytes > limit) return undefined;
      reserved += bytes;
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        reserved -= bytes;
      };
    },
  };
};

/** The budget of a server whose bodies are at most `maxBodyBytes`: a body it admits always fits when nothing
 * else is in flight, so the total is never below that size. */
export const bodyBudgetOf = (maxBodyBytesInFlight: number, maxBodyBytes: number): ByteBudget =>
  makeByteBudget(Math.max(maxBodyBytesInFlight, maxBodyBytes));

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
