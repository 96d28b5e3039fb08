import { stopwordStems, type Token } from "../../text/tokens.js";
import type { Passage } from "./source-index.js";

/**
 * Share of the claim's neighbouring content-word pairs (stopwords left out, by their stems) that stand as
 * neighbours in one of the passages; a pair written twice in the claim counts twice. A passage is walked only
 * when it holds both stems of a pair not found yet (one look-up in its set of stems per stem of the claim's few
 * pairs, where a walk costs a look-up per word of it, and most passages of a claim's window hold no pair the
 * claim still needs), and the walk compares each neighbouring pair with those candidates alone. Nothing is
 * kept per pair but a flag: no set of pairs is built, for the claim or for a passage (a map of sets per claim
 * was about 3% of a verification's allocations, and a string per neighbouring pair of every aligned passage
 * more than that).
 */
export const pairShareOf = (tokens: readonly Token[], passages: readonly Passage[]): number => {
  const skip = stopwordStems();
  // The claim's pairs, in order: first stems and second stems side by side.
  const firsts: string[] = [];
  const seconds: string[] = [];
  let previous: string | undefined;
  for (const token of tokens) {
    const stem = token.stem;
    if (skip.has(stem)) continue;
    if (previous !== undefined) {
      firsts.push(previous);
      seconds.push(stem);
    }
    previous = stem;
  }
  const count = firsts.length;
  if (count === 0) return 1;
  const found: boolean[] = new Array<boolean>(count).fill(false);
  let missing = count;
  // The pairs one passage may hold, by their place in `firsts`.
  const candidates: number[] = [];
  for (const passage of passages) {
    if (missing === 0) break;
    const held = passage.stems;
    candidates.length = 0;
    for (let pair = 0; pair < count; pair++)
      if (!found[pair] && held.has(firsts[pair] as string) && held.has(seconds[pair] as string))
        candidates.push(pair);
    if (candidates.length === 0) continue;
    let before: string | undefined;
    for (const stem of passage.stemSequence) {
      if (skip.has(stem)) continue;
      if (before !== undefined)
        for (const pair of candidates)
          if (!found[pair] && firsts[pair] === before && seconds[pair] === stem) {
            found[pair] = true;
            missing -= 1;
          }
      before = stem;
    }
  }
  return (count - missing) / count;
};
