import { isStopword, type Token } from "../../text/tokens.js";
import type { Passage } from "./source-index.js";

const radius = 4;

/** Numbers and scale words say little about which figure a word is about ("million" is everywhere). */
const magnitudeWords = new Set(["thousand", "million", "billion", "trillion", "percent", "per", "cent"]);
const isMagnitude = (lower: string): boolean => magnitudeWords.has(lower) || /\d/.test(lower);

const neighbourStems = (tokens: readonly Token[], position: number): Set<string> => {
  const stems = new Set<string>();
  for (let i = Math.max(0, position - radius); i <= Math.min(tokens.length - 1, position + radius); i++) {
    const token = tokens[i];
    if (i !== position && token && isNeighbourWord(token)) stems.add(token.stem);
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
 * content words with `claimNeighbours`, the neighbourhood of the claim's word, if any shares one. This is
 * what tells "decreasing its dividend" against "increasing its dividend" (same slot) from "reducing net debt"
 * next to "increasing the dividend" (another slot of the same sentence).
 */
const bestSlotMatch = (
  claimNeighbours: ReadonlySet<string>,
  passages: readonly Passage[],
  targets: ReadonlySet<string>,
): SlotMatch | undefined => {
  if (claimNeighbours.size === 0) return undefined;
  let best: SlotMatch | undefined;
  for (const passage of passages) {
    if (!containsAny(passage, targets)) continue;
    const tokens = passage.tokens;
    for (let j = 0; j < tokens.length; j++) {
      const token = tokens[j];
      if (!token || !targets.has(token.stem)) continue;
      const shared = sharedNeighbours(tokens, j, claimNeighbours);
      if (shared > 0 && (!best || shared > best.shared)) best = { passage, token, shared };
    }
  }
  return best;
};

/** Whether the passage has any of the stems (its set of stems, without tokenizing it), walking the smaller side. */
const containsAny = (passage: Passage, stems: ReadonlySet<string>): boolean => {
  const own = passage.stems;
  if (own.size < stems.size) {
    for (const stem of own) if (stems.has(stem)) return true;
    return false;
  }
  for (const stem of stems) if (own.has(stem)) return true;
  return false;
};

const isNeighbourWord = (token: Token): boolean => !isStopword(token.lower) && !isMagnitude(token.lower);

/** How many distinct stems of the neighbourhood of `tokens[position]` are in `wanted` (no set is built). */
const sharedNeighbours = (
  tokens: readonly Token[],
  position: number,
  wanted: ReadonlySet<string>,
): number => {
  const low = Math.max(0, position - radius);
  const high = Math.min(tokens.length - 1, position + radius);
  let shared = 0;
  for (let i = low; i <= high; i++) {
    const token = tokens[i];
    if (i === position || !token || !wanted.has(token.stem) || !isNeighbourWord(token)) continue;
    let counted = false;
    for (let k = low; k < i && !counted; k++) {
      const earlier = tokens[k];
      counted =
        k !== position && earlier !== undefined && earlier.stem === token.stem && isNeighbourWord(earlier);
    }
    if (!counted) shared++;
  }
  return shared;
};

/** No allies: one set for every call that names none. */
const noAllies: ReadonlySet<string> = new Set();

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
  allies: ReadonlySet<string> = noAllies,
): SlotMatch | undefined => {
  const own = claimTokens[position];
  if (!own) return undefined;
  const claimNeighbours = neighbourStems(claimTokens, position);
  const rival = bestSlotMatch(claimNeighbours, passages, rivals);
  // One shared word is enough only when the claim's word has few neighbours to share.
  const needed = Math.min(2, claimNeighbours.size);
  if (!rival || rival.shared < needed) return undefined;
  // The word itself and its allies (when the allies already hold the word, as a direction's synonyms do, as is).
  const ownSide = allies.has(own.stem) ? allies : new Set([own.stem, ...allies]);
  const ally = bestSlotMatch(claimNeighbours, passages, ownSide);
  return ally && ally.shared >= rival.shared ? undefined : rival;
};
