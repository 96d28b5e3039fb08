import type { Token } from "../../text/tokens.js";
import { inverseDocumentFrequency, type Passage, type SourceIndex } from "./source-index.js";

export interface Alignment {
  readonly passage: Passage;
  readonly score: number;
}

const k1 = 1.2;
const b = 0.75;

/** The passages that best match a claim's content tokens, by BM25, best first. */
export const alignClaim = (index: SourceIndex, claimTokens: readonly Token[], limit: number): Alignment[] => {
  const queryStems = [...new Set(claimTokens.map((token) => token.stem))];
  const weights = queryStems.map((stem) => inverseDocumentFrequency(index, stem));
  const scored: Alignment[] = [];
  for (const passage of index.passages) {
    let score = 0;
    for (let i = 0; i < queryStems.length; i++) {
      const frequency = passage.stems.get(queryStems[i] ?? "") ?? 0;
      if (frequency === 0) continue;
      const norm = k1 * (1 - b + (b * passage.length) / Math.max(index.averageLength, 1));
      score += (weights[i] ?? 0) * ((frequency * (k1 + 1)) / (frequency + norm));
    }
    if (score > 0) scored.push({ passage, score });
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
