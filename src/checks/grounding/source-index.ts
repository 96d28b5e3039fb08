import { splitSentences } from "../../text/sentences.js";
import { stemsOf, type Token, tokenize } from "../../text/tokens.js";
import type { EvidenceSource } from "../../verification/layer.js";

/** A sentence of one evidence source. Its stems are counted up front; its tokens are made on first use. */
export interface Passage {
  readonly id: number;
  readonly source: number;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly tokens: readonly Token[];
  /** Stems of the passage's tokens, with their counts. */
  readonly stems: ReadonlyMap<string, number>;
  readonly length: number;
}

/** Everything the grounding checks look up in the evidence, built once per request. */
export interface SourceIndex {
  readonly passages: readonly Passage[];
  /** For each stem, the passages that contain it (ids, ascending): BM25 touches only these. */
  readonly postings: ReadonlyMap<string, readonly number[]>;
  /** For each stem, its count in each passage of `postings`, in the same order. */
  readonly termFrequencies: ReadonlyMap<string, readonly number[]>;
  /** BM25's length normalisation of each passage: k1 * (1 - b + b * length / averageLength). */
  readonly lengthNorms: Float64Array;
  /** Every stem in any source. */
  readonly stems: ReadonlySet<string>;
  /** The sources' text, lower-cased and with runs of white space folded, for phrase look-ups (lazy). */
  readonly foldedText: () => string;
  readonly averageLength: number;
}

export const foldText = (text: string): string => text.toLowerCase().replace(/’/g, "'").replace(/\s+/g, " ");

export const buildSourceIndex = (evidence: readonly EvidenceSource[]): SourceIndex => {
  const passages: Passage[] = [];
  const postings = new Map<string, number[]>();
  const termFrequencies = new Map<string, number[]>();
  const stems = new Set<string>();
  let totalLength = 0;
  let folded: string | undefined;
  for (const source of evidence) {
    for (const sentence of splitSentences(source.text)) {
      const sentenceStems = stemsOf(sentence.text);
      const counts = new Map<string, number>();
      for (const stem of sentenceStems) counts.set(stem, (counts.get(stem) ?? 0) + 1);
      for (const stem of counts.keys()) {
        stems.add(stem);
        const list = postings.get(stem);
        const count = counts.get(stem) ?? 0;
        if (list) {
          list.push(passages.length);
          termFrequencies.get(stem)?.push(count);
        } else {
          postings.set(stem, [passages.length]);
          termFrequencies.set(stem, [count]);
        }
      }
      totalLength += sentenceStems.length;
      let tokens: Token[] | undefined;
      passages.push({
        id: passages.length,
        source: source.index,
        start: sentence.span.start,
        end: sentence.span.end,
        text: sentence.text,
        get tokens() {
          tokens ??= tokenize(sentence.text, sentence.span.start);
          return tokens;
        },
        stems: counts,
        length: sentenceStems.length,
      });
    }
  }
  const averageLength = passages.length > 0 ? totalLength / passages.length : 0;
  return {
    passages,
    postings,
    termFrequencies,
    lengthNorms: bm25LengthNorms(passages, averageLength),
    stems,
    foldedText: () => {
      folded ??= evidence.map((source) => foldText(source.text)).join(" \n ");
      return folded;
    },
    averageLength,
  };
};

export const bm25K1 = 1.2;
export const bm25B = 0.75;

const bm25LengthNorms = (passages: readonly Passage[], averageLength: number): Float64Array => {
  const norms = new Float64Array(passages.length);
  const average = Math.max(averageLength, 1);
  passages.forEach((passage, id) => {
    norms[id] = bm25K1 * (1 - bm25B + (bm25B * passage.length) / average);
  });
  return norms;
};

/** Inverse document frequency with BM25's smoothing, never negative. Unknown stems get the highest weight. */
export const inverseDocumentFrequency = (index: SourceIndex, stem: string): number => {
  const total = index.passages.length;
  const frequency = index.postings.get(stem)?.length ?? 0;
  return Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
};
