import type { Span } from "../../model/span.js";
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
): number => {
  if (tokens.length === 0) return 1;
  const maxWeight = Math.log(1 + (index.passages.length + 0.5) / 0.5);
  let total = 0;
  let covered = 0;
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
    if (windowStems.has(token.stem) || isExplained(explained, token.span)) covered += weight * weights.local;
    else if (known) covered += weight * weights.global;
  }
  return total > 0 ? covered / total : 1;
};
