import type { Span } from "../../model/span.js";
import { hasDigit } from "../../text/ascii.js";
import { isStopword, type Token } from "../../text/tokens.js";
import type { StemLookup } from "./claim-context.js";
import { isExplained } from "./explained-numbers.js";
import { inverseDocumentFrequency, type SourceIndex } from "./source-index.js";

export interface CoverageWeights {
  /** Credit for a claim word found in the passage the claim matches. */
  readonly local: number;
  /** Credit for a claim word found elsewhere in the sources only. */
  readonly global: number;
  /**
   * Weight of a function word ("I", "my", "you", "was") relative to a content word of average rarity.
   * Small but not zero: personal, conversational statements ("I loved it") are made of them, and a source
   * rarely contains them.
   */
  readonly functionWord: number;
}

export interface CoverageMeasure {
  /** Local credit plus global credit, over the claim's total weight. */
  readonly coverage: number;
  /**
   * Share of the weight of the claim's words, figures left out, found in the aligned passages and their
   * neighbours. Figures are left to the numbers checks, which can trace a derived figure that no passage
   * contains; a claim made only of figures has no words here and reads as fully local.
   */
  readonly local: number;
  /** Share of the weight of the claim's words, figures left out, found nowhere in the sources. */
  readonly novel: number;
  /** How many distinct words, figures left out, the shares above were measured on. */
  readonly words: number;
}

/** Words that belong to a figure ("172 million", "5 percent"): judged with it by the numbers checks. */
const figureWords: ReadonlySet<string> = new Set([
  "hundred",
  "thousand",
  "million",
  "millions",
  "billion",
  "billions",
  "trillion",
  "bn",
  "mn",
  "percent",
  "per",
  "cent",
  "percentage",
]);
const isFigureWord = (lower: string): boolean => hasDigit(lower) || figureWords.has(lower);

/**
 * How much of a claim's content the evidence covers, weighting rare words higher (IDF): 1 when every content
 * word stands in the aligned passages, less when words stand elsewhere only or nowhere. A number another layer
 * traced to the sources (`explained`) counts as standing in the aligned passages.
 */
export const coverage = (
  index: SourceIndex,
  tokens: readonly Token[],
  windowStems: StemLookup,
  weights: CoverageWeights,
  explained: readonly Span[],
): CoverageMeasure => {
  if (tokens.length === 0) return { coverage: 1, local: 1, novel: 0, words: 0 };
  const maxWeight = Math.log(1 + (index.passages.length + 0.5) / 0.5);
  let total = 0;
  let local = 0;
  let global = 0;
  let wordTotal = 0;
  let wordLocal = 0;
  let wordNovel = 0;
  let words = 0;
  const seen = new Set<string>();
  for (const token of tokens) {
    if (seen.has(token.stem)) continue;
    seen.add(token.stem);
    const known = index.stems.has(token.stem);
    const weight = isStopword(token.lower)
      ? weights.functionWord
      : known
        ? inverseDocumentFrequency(index, token.stem)
        : maxWeight;
    total += weight;
    const isWord = !isFigureWord(token.lower);
    if (isWord) {
      wordTotal += weight;
      if (!isStopword(token.lower)) words++;
    }
    if (windowStems.has(token.stem) || isExplained(explained, token.span)) {
      local += weight;
      if (isWord) wordLocal += weight;
    } else if (known) global += weight;
    else if (isWord) wordNovel += weight;
  }
  return {
    coverage: total > 0 ? (local * weights.local + global * weights.global) / total : 1,
    local: wordTotal > 0 ? wordLocal / wordTotal : 1,
    novel: wordTotal > 0 ? wordNovel / wordTotal : 0,
    words,
  };
};
