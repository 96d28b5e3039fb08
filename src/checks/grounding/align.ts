import { makeScratchArray } from "../../model/scratch-array.js";
import type { Token } from "../../text/tokens.js";
import {
  bm25K1,
  inverseDocumentFrequency,
  type Passage,
  type Posting,
  type SourceIndex,
} from "./source-index.js";

export interface Alignment {
  readonly passage: Passage;
  readonly score: number;
}

const k1 = bm25K1;
/**
 * A word found in more passages than this is skipped in alignment (its weight is near the floor anyway),
 * so a claim of common words against a huge source costs at most this many steps per word.
 */
const maxPostings = 2_000;

export interface ClaimAlignment {
  /** The passages that best match the claim, by BM25, best first. */
  readonly alignments: Alignment[];
  /**
   * The most of the claim's distinct content stems that one passage holds, over every passage that shares
   * a stem with the claim (not only the best by BM25), and how many distinct stems the claim has.
   */
  readonly mostSharedStems: number;
  readonly claimStems: number;
}

/**
 * The score buffer and the shared-stem counter, by passage id, kept between claims and between indexes (see
 * `makeScratchArray`): each claim sets back to 0 every entry it wrote, so a buffer handed out is all zeros.
 */
const scratchScores = makeScratchArray((length) => new Float64Array(length));
const scratchShared = makeScratchArray((length) => new Uint16Array(length));

/** Aligns a claim's content tokens to the passages of the sources (see `ClaimAlignment`). */
export const alignClaim = (
  index: SourceIndex,
  claimTokens: readonly Token[],
  limit: number,
): ClaimAlignment => {
  // Each distinct stem the sources have, with its posting looked up once, rarest first (ties keep claim order).
  const seen = new Set<string>();
  const query: { stem: string; posting: Posting }[] = [];
  for (const token of claimTokens) {
    if (seen.has(token.stem)) continue;
    seen.add(token.stem);
    const posting = index.postings.get(token.stem);
    if (posting && posting.ids.length > 0) query.push({ stem: token.stem, posting });
  }
  query.sort((x, y) => x.posting.ids.length - y.posting.ids.length);
  const shared = scratchShared.take(index.passages.length);
  // Scores by passage id in a flat array reused across claims (reset below); `touched` lists the ids scored.
  const scores = scratchScores.take(index.passages.length);
  const touched: number[] = [];
  query.forEach(({ stem, posting }, i) => {
    const postings = posting.ids;
    // Rarest first: a common word is skipped, unless no rarer word matched at all (then it is sampled).
    if (postings.length > maxPostings && i > 0) return;
    const weight = inverseDocumentFrequency(index, stem);
    const frequencies = posting.frequencies;
    const count = Math.min(postings.length, maxPostings);
    for (let p = 0; p < count; p++) {
      const id = postings[p] ?? 0;
      const termFrequency = frequencies[p] ?? 0;
      const norm = index.lengthNorms[id] ?? k1;
      if (scores[id] === 0) touched.push(id);
      scores[id] = (scores[id] ?? 0) + (weight * (termFrequency * (k1 + 1))) / (termFrequency + norm);
      shared[id] = (shared[id] ?? 0) + 1;
    }
  });
  const best: Alignment[] = [];
  let mostSharedStems = 0;
  for (const id of touched) {
    const score = scores[id] ?? 0;
    scores[id] = 0;
    mostSharedStems = Math.max(mostSharedStems, shared[id] ?? 0);
    shared[id] = 0;
    const passage = index.passages[id];
    if (!passage || score <= 0) continue;
    // Keep the `limit` best, by score then by position: a small insertion list, no full sort.
    let at = best.length;
    while (at > 0) {
      const previous = best[at - 1]!;
      if (previous.score > score || (previous.score === score && previous.passage.id < id)) break;
      at--;
    }
    if (at < limit) {
      best.splice(at, 0, { passage, score });
      if (best.length > limit) best.pop();
    }
  }
  scratchScores.give(scores);
  scratchShared.give(shared);
  return { alignments: best, mostSharedStems, claimStems: seen.size };
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
