/**
 * A total held at once by requests in flight (bytes of their bodies, or the requests themselves), of which each
 * holder (an API key) may take only a share: one key cannot take the whole total and shut every other key out;
 * to do that takes as many keys as shares fit in the total.
 */
export interface SharedBudget {
  /** Units reserved now, by every holder. */
  readonly reserved: () => number;
  /** Most units held at once. */
  readonly limit: number;
  /** Most units one holder holds at once. */
  readonly limitPerHolder: number;
  /**
   * Reserves `units` for `holder` (undefined: a caller with no key, held to the total only). Answers the
   * function that gives them back (once), or which limit they did not fit.
   */
  readonly reserve: (units: number, holder: string | undefined) => Reservation;
}

export type Reservation =
  | { readonly held: true; readonly release: () => void }
  | { readonly held: false; readonly full: "total" | "holder" };

export const makeSharedBudget = (limit: number, limitPerHolder: number): SharedBudget => {
  let reserved = 0;
  // Only holders with units reserved have an entry, so it never has more entries than requests in flight.
  const byHolder = new Map<string, number>();
  return {
    limit,
    limitPerHolder,
    reserved: () => reserved,
    reserve: (units, holder) => {
      if (reserved + units > limit) return { held: false, full: "total" };
      const holderHas = holder === undefined ? 0 : (byHolder.get(holder) ?? 0);
      if (holder !== undefined && holderHas + units > limitPerHolder) return { held: false, full: "holder" };
      reserved += units;
      if (holder !== undefined) byHolder.set(holder, holderHas + units);
      let held = true;
      const release = () => {
        if (!held) return;
        held = false;
        reserved -= units;
        if (holder === undefined) return;
        const left = (byHolder.get(holder) ?? 0) - units;
        if (left > 0) byHolder.set(holder, left);
        else byHolder.delete(holder);
      };
      return { held: true, release };
    },
  };
};

/**
 * The requests one key has in flight at once, at most `perKey` (no total: the connection cap and the verifiers'
 * queues bound that). The verification workers take the keys' checks in turn, but their queues are shared (256
 * checks each): without a share one key sending many at once fills them, and every other key's request is
 * refused as busy.
 */
export const requestSlotsOf = (perKey: number): SharedBudget =>
  makeSharedBudget(Number.POSITIVE_INFINITY, perKey);

/** Why the request slots refused a request, as its client reads it: the limit and when to try again. */
export const requestSlotsRefusal = (slots: SharedBudget): string =>
  `one key has at most ${slots.limitPerHolder} requests in flight at once; try again when one has been answered`;
