import { proximity } from "../derive/operands.js";
import type { Found } from "../derive/search.js";
import type { SourceNumber } from "../derive/source-numbers.js";

/** How well a derivation is about what the claim is about; higher is closer. */
export type TopicScore = (found: Found) => number;

/**
 * Scores a match by the words the claim (and question) shares with where its operands sit (`words`: their
 * `contentWords`): the weakest named operand counts most, then the sum. A total row or a row without a label of words cannot be named by
 * a claim, so it is left out of the score (a share of the total is about the item, not the total). Used to
 * choose between explanations: "the change in Capital redemption reserve was -0.2" is better explained by
 * the Capital redemption reserve row giving +0.2 than by two figures of another row giving -0.2.
 */
export const topicScorer = (words: readonly string[]): TopicScore => {
  // Scored when first asked for: most numbers match a source value directly and never need it.
  const scores = new Map<number, number>();
  const scoreOf = (part: SourceNumber): number => {
    let score = scores.get(part.id);
    if (score === undefined) {
      score = proximity(part, words);
      scores.set(part.id, score);
    }
    return score;
  };
  const unnamed = (part: SourceNumber) =>
    part.source < 0 || part.isTotal || (part.table !== undefined && !/\p{L}{3,}/u.test(part.table.label));
  return (found) => {
    const named = [...found.a.parts, ...(found.b?.parts ?? [])].filter((part) => !unnamed(part));
    // Only totals or unlabelled rows: neither on nor off the claim's topic.
    if (named.length === 0) return 50;
    const values = named.map(scoreOf);
    return Math.min(...values) * 100 + values.reduce((total, value) => total + value, 0) / values.length;
  };
};
