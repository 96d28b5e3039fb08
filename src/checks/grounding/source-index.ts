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
  /** The distinct stems of the passage's tokens. */
  readonly stems: ReadonlySet<string>;
  /** Stems of the passage's words in order (stopwords included), as the index read them. */
  readonly stemSequence: readonly string[];
  readonly length: number;
}

/**
 * A passage as the index builds it: its tokens and set of stems are made on first use, since most passages
 * never become a claim's candidate. A class, not an object literal with getters: literal accessors give
 * every passage its own hidden class and closures, which outlive young-generation collections and made
 * garbage collection the largest cost of indexing new sources.
 */
class SourcePassage implements Passage {
  #tokens: Token[] | undefined;
  #stems: Set<string> | undefined;
  /** The sentence's stems, as read; shared with every other index built from a kept reading of its source. */
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

  get stems(): ReadonlySet<string> {
    this.#stems ??= new Set(this.#sentenceStems);
    return this.#stems;
  }
}

/** The passages that hold one stem: their ids, ascending, and the stem's count in each (same positions). */
export interface Posting {
  readonly ids: ArrayLike<number>;
  readonly frequencies: ArrayLike<number>;
}

/** Each stem of the sources with its posting (`SourceIndex.stems` says whether a stem is there). */
export interface Postings {
  readonly get: (stem: string) => Posting | undefined;
  readonly keys: () => IterableIterator<string>;
}

/** Everything the grounding checks look up in the evidence, built once per request. */
export interface SourceIndex {
  readonly passages: readonly Passage[];
  /** For each stem, the passages that contain it (ids, ascending) and its count in each: BM25 touches only these. */
  readonly postings: Postings;
  /** BM25's length normalisation of each passage: k1 * (1 - b + b * length / averageLength). */
  readonly lengthNorms: Float64Array;
  /** Whether any source has the stem (the postings' keys). */
  readonly stems: { readonly has: (stem: string) => boolean };
  /** The sources' text, lower-cased and with runs of white space folded, for phrase look-ups (lazy). */
  readonly foldedText: () => string;
  readonly averageLength: number;
}

const curlyApostrophes = /’/g;
const whiteSpaceRuns = /\s+/g;
export const foldText = (text: string): string =>
  text.toLowerCase().replace(curlyApostrophes, "'").replace(whiteSpaceRuns, " ");

/**
 * The postings as the index is built: one entry per stem and passage, in passage order, with the stem's count
 * there. Module-level and reused, since a build runs to its end without yielding; `packPostings` copies what
 * one build wrote into arrays of its own. Postings kept as one object and two growing arrays per stem were a
 * sixth of what a verification allocated, and stayed alive until the verification ended, so every
 * young-generation collection that ran meanwhile copied them; a typed array's contents (past 64 bytes) sit
 * outside the collected heap and are never copied.
 */
const firstEntries = 4_096;
const firstStems = 1_024;
let entryStems = new Int32Array(firstEntries);
let entryPassages = new Int32Array(firstEntries);
let entryFrequencies = new Int32Array(firstEntries);
/** Per stem number: the last passage that held it, and its entry there. */
let lastPassages = new Int32Array(firstStems);
let lastEntries = new Int32Array(firstStems);
/** Arrays a large build grew past this many numbers go back to their first size after it: 1.5 MB of entries. */
const largestKept = 1 << 17;

const releaseLargeArrays = (): void => {
  if (entryStems.length > largestKept) {
    entryStems = new Int32Array(firstEntries);
    entryPassages = new Int32Array(firstEntries);
    entryFrequencies = new Int32Array(firstEntries);
  }
  if (lastPassages.length > largestKept) {
    lastPassages = new Int32Array(firstStems);
    lastEntries = new Int32Array(firstStems);
  }
};

const grown = (array: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> => {
  if (size <= array.length) return array;
  const larger = new Int32Array(Math.max(size, array.length * 2));
  larger.set(array);
  return larger;
};

/**
 * The postings of one build, packed: each stem's entries side by side (`starts[stem]` to `starts[stem + 1]`).
 * A stem's posting object is made when first asked for: most stems of the sources never meet a claim.
 */
const packPostings = (stemNumbers: Map<string, number>, entryCount: number): Postings => {
  const stemCount = stemNumbers.size;
  const starts = new Int32Array(stemCount + 1);
  for (let entry = 0; entry < entryCount; entry++) {
    const next = (entryStems[entry] as number) + 1;
    starts[next] = (starts[next] as number) + 1;
  }
  for (let stem = 0; stem < stemCount; stem++)
    starts[stem + 1] = (starts[stem + 1] as number) + (starts[stem] as number);
  const ids = new Int32Array(entryCount);
  const frequencies = new Int32Array(entryCount);
  // Where each stem's next entry goes: the module's `lastEntries`, free once the build has read its entries,
  // and as long as the stems (grown with them as they were numbered).
  const filled = lastEntries;
  filled.set(starts.subarray(0, stemCount));
  for (let entry = 0; entry < entryCount; entry++) {
    const stem = entryStems[entry] as number;
    const at = filled[stem] as number;
    filled[stem] = at + 1;
    ids[at] = entryPassages[entry] as number;
    frequencies[at] = entryFrequencies[entry] as number;
  }
  let made: (Posting | undefined)[] | undefined;
  return {
    get: (stem) => {
      const number = stemNumbers.get(stem);
      if (number === undefined) return undefined;
      made ??= new Array<Posting | undefined>(stemCount);
      let posting = made[number];
      if (posting === undefined) {
        const from = starts[number] as number;
        const to = starts[number + 1] as number;
        posting = { ids: ids.subarray(from, to), frequencies: frequencies.subarray(from, to) };
        made[number] = posting;
      }
      return posting;
    },
    keys: () => stemNumbers.keys(),
  };
};

/** A sentence of one source as the index reads it: where it sits, its text, the stems of its words in order. */
export interface SourceSentence {
  readonly start: number;
  readonly end: number;
  readonly text: string;
  readonly stems: readonly string[];
}

/** How the index reads one source's text into sentences (`readSourceSentences`, or a cache of its readings). */
export type SentenceReader = (text: string) => readonly SourceSentence[];

/**
 * The sentences of one source with their stems: all the index needs of the source's text, and the same
 * whatever other sources come with it, so a reading can be kept per source and shared by indexes.
 */
export const readSourceSentences: SentenceReader = (text) =>
  splitSentences(text).map((sentence) => ({
    start: sentence.span.start,
    end: sentence.span.end,
    text: sentence.text,
    stems: stemsOf(text, sentence.span.start, sentence.span.end),
  }));

export const buildSourceIndex = (
  evidence: readonly EvidenceSource[],
  readSentences: SentenceReader = readSourceSentences,
): SourceIndex => {
  const passages: Passage[] = [];
  // Each distinct stem's number, in order of first appearance.
  const stemNumbers = new Map<string, number>();
  let entryCount = 0;
  let totalLength = 0;
  let folded: string | undefined;
  for (const source of evidence) {
    for (const sentence of readSentences(source.text)) {
      const id = passages.length;
      const sentenceStems = sentence.stems;
      // One map look-up per word: a stem seen earlier in this passage only counts up.
      for (const stem of sentenceStems) {
        let number = stemNumbers.get(stem);
        if (number === undefined) {
          number = stemNumbers.size;
          stemNumbers.set(stem, number);
          if (number >= lastPassages.length) {
            lastPassages = grown(lastPassages, number + 1);
            lastEntries = grown(lastEntries, number + 1);
          }
          lastPassages[number] = -1;
        }
        if (lastPassages[number] === id) {
          const entry = lastEntries[number] as number;
          entryFrequencies[entry] = (entryFrequencies[entry] as number) + 1;
          continue;
        }
        if (entryCount >= entryStems.length) {
          entryStems = grown(entryStems, entryCount + 1);
          entryPassages = grown(entryPassages, entryCount + 1);
          entryFrequencies = grown(entryFrequencies, entryCount + 1);
        }
        lastPassages[number] = id;
        lastEntries[number] = entryCount;
        entryStems[entryCount] = number;
        entryPassages[entryCount] = id;
        entryFrequencies[entryCount] = 1;
        entryCount += 1;
      }
      totalLength += sentenceStems.length;
      passages.push(
        new SourcePassage(id, source.index, sentence.start, sentence.end, sentence.text, sentenceStems),
      );
    }
  }
  const averageLength = passages.length > 0 ? totalLength / passages.length : 0;
  const postings = packPostings(stemNumbers, entryCount);
  releaseLargeArrays();
  return {
    passages,
    postings,
    stems: stemNumbers,
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
