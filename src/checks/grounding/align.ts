import type { Token } from "../../text/tokens.js";
import { inverseDocumentFrequency, type Passage, type SourceIndex } from "./source-index.js";

export interface Alignment {
  readonly passage: Passage;
  readonly score: number;
}

const k1 = 1.2;
const b = 0.75;
/**
 * A word found in more passages than this is skipped in alignment (its weight is near the floor anyway),
 * so a claim of common words against a huge source costs at most this many steps per word.
 */
const maxPostings = 2_000;

/** The passages that best match a claim's content tokens, by BM25, best first. */
export const alignClaim = (index: SourceIndex, claimTokens: readonly Token[], limit: number): Alignment[] => {
  const frequency = (stem: string) => index.postings.get(stem)?.length ?? 0;
  const queryStems = [...new Set(claimTokens.map((token) => token.stem))]
    .filter((stem) => frequency(stem) > 0)
    .sort((x, y) => frequency(x) - frequency(y));
  const weights = queryStems.map((stem) => inverseDocumentFrequency(index, stem));
  const scores = new Map<number, number>();
  queryStems.forEach((stem, i) => {
    const postings = index.postings.get(stem) ?? [];
    // Rarest first: a common word is skipped, unless no rarer word matched at all (then it is sampled).
    if (postings.length > maxPostings && i > 0) return;
    for (const id of postings.length > maxPostings ? postings.slice(0, maxPostings) : postings) {
      const passage = index.passages[id];
      if (!passage) continue;
      const frequency = passage.stems.get(stem) ?? 0;
      const norm = k1 * (1 - b + (b * passage.length) / Math.max(index.averageLength, 1));
      scores.set(
        id,
        (scores.get(id) ?? 0) + (weights[i] ?? 0) * ((frequency * (k1 + 1)) / (frequency + norm)),
      );
    }
  });
  const scored: Alignment[] = [];
  for (const [id, score] of scores) {
    const passage = index.passages[id];
    if (passage && score > 0) scored.push({ passage, score });
  }
  scored.sort((left, right) => right.score - left.score || left.passage.id - right.passage.id);
  return scored.slice(0, limit);
};

/** The aligned passages plus their immediate neighbours in the same source (a claim may span two). */
export const alignmentWindow = (index: SourceIndex, alignments: readonly Alignment[]): Passage[] => {
  const ids = new Set<number>();
  for (const { passage } of alignments) {
    for (const id of [passage.id - 1, passage.id, passage.id + 1]) {
      const neighbour = index.passages[id];
      if (neighbour && neighbour.source === passage.source) ids.add(id);
    }
  }
  return [...ids].sort((x, y) => x - y).map((id) => index.passages[id]!);
};
