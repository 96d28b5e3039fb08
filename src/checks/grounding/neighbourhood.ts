import { isStopword, type Token } from "../../text/tokens.js";
import type { Passage } from "./source-index.js";

const radius = 4;

/** Numbers and scale words say little about which figure a word is about ("million" is everywhere). */
const isMagnitude = (lower: string): boolean =>
  /\d/.test(lower) || /^(?:thousand|million|billion|trillion|percent|per|cent)$/.test(lower);

const neighbourStems = (tokens: readonly Token[], position: number): Set<string> => {
  const stems = new Set<string>();
  for (let i = Math.max(0, position - radius); i <= Math.min(tokens.length - 1, position + radius); i++) {
    const token = tokens[i];
    if (i !== position && token && !isStopword(token.lower) && !isMagnitude(token.lower))
      stems.add(token.stem);
  }
  return stems;
};

export interface SlotMatch {
  readonly passage: Passage;
  readonly token: Token;
  /** How many content words the two neighbourhoods share. */
  readonly shared: number;
}

/**
 * The occurrence of a word in `targets` whose neighbourhood (a few words either side) shares the most
 * content words with the neighbourhood of the claim's word at `position`, if any shares one. This is what
 * tells "decreasing its dividend" against "increasing its dividend" (same slot) from "reducing net debt"
 * next to "increasing the dividend" (another slot of the same sentence).
 */
export const bestSlotMatch = (
  claimTokens: readonly Token[],
  position: number,
  passages: readonly Passage[],
  targets: ReadonlySet<string>,
): SlotMatch | undefined => {
  const claimNeighbours = neighbourStems(claimTokens, position);
  if (claimNeighbours.size === 0) return undefined;
  let best: SlotMatch | undefined;
  for (const passage of passages) {
    for (let j = 0; j < passage.tokens.length; j++) {
      const token = passage.tokens[j];
      if (!token || !targets.has(token.stem)) continue;
      let shared = 0;
      for (const stem of neighbourStems(passage.tokens, j)) if (claimNeighbours.has(stem)) shared++;
      if (shared > 0 && (!best || shared > best.shared)) best = { passage, token, shared };
    }
  }
  return best;
};

/**
 * A word of the claim that the aligned passages replace, in the same slot, by a word of `rivals` (an
 * opposite, another value of the same kind) more closely than they use the claim's own word (or `allies`,
 * its synonyms) there.
 */
export const findSwap = (
  claimTokens: readonly Token[],
  position: number,
  passages: readonly Passage[],
  rivals: ReadonlySet<string>,
  allies: ReadonlySet<string> = new Set(),
): SlotMatch | undefined => {
  const own = claimTokens[position];
  if (!own) return undefined;
  const rival = bestSlotMatch(claimTokens, position, passages, rivals);
  // One shared word is enough only when the claim's word has few neighbours to share.
  const needed = Math.min(2, neighbourStems(claimTokens, position).size);
  if (!rival || rival.shared < needed) return undefined;
  const ally = bestSlotMatch(claimTokens, position, passages, new Set([own.stem, ...allies]));
  return ally && ally.shared >= rival.shared ? undefined : rival;
};
