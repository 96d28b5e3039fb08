/**
 * A work array reused from one call to the next, for arrays that do not outlive the call that takes them.
 *
 * A typed array of more than 64 bytes keeps its elements outside V8's heap: making one allocates and
 * registers a backing store, which the collector later frees. On this project's machines that cost about 2 µs
 * an array, against tens of nanoseconds to reuse one, and the checks made dozens per verification (the pair
 * search two per call, a table answer's figures about 90 calls).
 *
 * `take` hands out the kept array when it is free and long enough, else a new one (twice the kept length or
 * more, so a growing input makes few); `give` keeps the array for the next call. Its elements are whatever the
 * last user left: a caller writes every element it reads. A call that finds the array taken (a callback that
 * runs the same function again) makes its own, so no two users ever share one; an array not given back (the
 * call threw) is simply made again.
 */
export interface ScratchArray<A> {
  readonly take: (length: number) => A;
  readonly give: (array: A) => void;
}

export const makeScratchArray = <A extends { readonly length: number }>(
  make: (length: number) => A,
): ScratchArray<A> => {
  let kept: A | undefined;
  let longest = 0;
  return {
    take: (length) => {
      const free = kept;
      kept = undefined;
      if (free !== undefined && free.length >= length) return free;
      longest = Math.max(length, 2 * longest);
      return make(longest);
    },
    give: (array) => {
      kept = array;
    },
  };
};
