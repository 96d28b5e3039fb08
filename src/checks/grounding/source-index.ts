import type { EvidenceSource } from "../../model/layer.js";
import { splitSentences } from "../../text/sentences.js";
import { stemsOf, type Token, tokenize } from "../../text/tokens.js";

/** A sentence of one evidence source. Its stems and tokens are made on first use. */
export interface Passage {
  readonly id: number;
  readonly source: number;
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly tokens: readonly Token[];
  /** Stems of the passage's tokens, with their counts. */
  readonly stems: ReadonlyMap<string, number>;
  /** Stems of the passage's words in order (stopwords included), as the index read them. */
  readonly stemSequence: readonly string[];
  readonly length: number;
}

/**
 * A passage as the index builds it: its tokens and stem counts are made on first use, since most passages
 * never become a claim's candidate. A class, not an object literal with getters: literal accessors give
 * every passage its own hidden class and closures, which outlive young-generation collections and made
 * garbage collection the largest cost of indexing new sources.
 */
class SourcePassage implements Passage {
  #tokens: Token[] | undefined;
  #counts: Map<string, number> | undefined;
  readonly #sentenceStems: readonly string[];
  readonly length: number;

  constructor(
    readonly id: number,
    readonly source: number,
    readonly start: number,
    readonly end: number,
    readonly text: string,
    sentenceStems: readonly string[],
  ) {
    this.#sentenceStems = sentenceStems;
    this.length = sentenceStems.length;
  }

  get tokens(): readonly Token[] {
    this.#tokens ??= tokenize(this.text, this.start);
    return this.#tokens;
  }

  get stemSequence(): readonly string[] {
    return this.#sentenceStems;
  }

  get stems(): ReadonlyMap<string, number> {
    if (!this.#counts) {
      const counts = new Map<string, number>();
      for (const stem of this.#sentenceStems) counts.set(stem, (counts.get(stem) ?? 0) + 1);
      this.#counts = counts;
    }
    return this.#counts;
  }
}

export interface Posting {
  readonly ids: number[];
  readonly frequencies: number[];
}

/** Everything the grounding checks look up in the evidence, built once per request. */
export interface SourceIndex {
  readonly passages: readonly Passage[];
  /** For each stem, the passages that contain it (ids, ascending) and its count in each: BM25 touches only these. */
  readonly postings: ReadonlyMap<string, Posting>;
  /** BM25's length normalisation of each passage: k1 * (1 - b + b * length / averageLength). */
  readonly lengthNorms: Float64Array;
  /** Whether any source has the stem (the postings' keys). */
  readonly stems: { readonly has: (stem: string) => boolean };
  /** The sources' text, lower-cased and with runs of white space folded, for phrase look-ups (lazy). */
  readonly foldedText: () => string;
  readonly averageLength: number;
}

export const foldText = (text: string): string => text.toLowerCase().replace(/’/g, "'").replace(/\s+/g, " ");

export const buildSourceIndex = (evidence: readonly EvidenceSource[]): SourceIndex => {
  const passages: Passage[] = [];
  const postings = new Map<string, Posting>();
  let totalLength = 0;
  let folded: string | undefined;
  for (const source of evidence) {
    for (const sentence of splitSentences(source.text)) {
      const id = passages.length;
      const sentenceStems = stemsOf(source.text, sentence.span.start, sentence.span.end);
      // One map look-up per word: a stem seen earlier in this passage only counts up.
      for (const stem of sentenceStems) {
        const posting = postings.get(stem);
        if (!posting) postings.set(stem, { ids: [id], frequencies: [1] });
        else if (posting.ids[posting.ids.length - 1] === id) {
          posting.frequencies[posting.frequencies.length - 1] = (posting.frequencies.at(-1) ?? 0) + 1;
        } else {
          posting.ids.push(id);
          posting.frequencies.push(1);
        }
      }
      totalLength += sentenceStems.length;
      passages.push(
        new SourcePassage(
          id,
          source.index,
          sentence.span.start,
          sentence.span.end,
          sentence.text,
          sentenceStems,
        ),
      );
    }
  }
  const averageLength = passages.length > 0 ? totalLength / passages.length : 0;
  return {
    passages,
    postings,
    stems: postings,
    lengthNorms: bm25LengthNorms(passages, averageLength),
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
  const frequency = index.postings.get(stem)?.ids.length ?? 0;
  return Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
};
