/** What a hedge says about the claim, and what the gate does with it. */
export type HedgeCategory =
  | "personal-speculation"
  | "admitted-uncertainty"
  | "suggestion"
  | "technical-hedge"
  | "approximation";

export type HedgeAction = "block" | "review" | "continue";

export const actionOfCategory: Readonly<Record<HedgeCategory, Exclude<HedgeAction, "continue">>> = {
  "personal-speculation": "block",
  "admitted-uncertainty": "block",
  suggestion: "block",
  "technical-hedge": "review",
  approximation: "review",
};

export interface HedgePattern {
  readonly category: HedgeCategory;
  /** Case-insensitive, global; matched against the claim with curly apostrophes made straight. */
  readonly pattern: RegExp;
}

// "I", "I'd", "we would", then up to two qualifiers: "I certainly believe", "I do really think".
const I = String.raw`\b(?:i|we)(?:'d| would)?(?:,? (?:[a-z]+ly|kind of|sort of|do|did|still|also|just|even)){0,2}`;

/**
 * The phrases that hedge a claim, each with its category: personal speculation, admitted uncertainty and
 * suggestions block the claim; technical hedges and approximations send it to review. Blocking categories
 * come first, longer phrases before their parts. Bare "maybe" and "perhaps" count as personal speculation:
 * a memory that says "maybe" records a guess, not a fact.
 */
export const hedgePatterns: readonly HedgePattern[] = [
  {
    category: "suggestion",
    pattern: /\b(?:maybe|perhaps) (?:we|you|they|i) (?:should|could|might|can|ought to|try)\b/gi,
  },
  { category: "suggestion", pattern: /\b(?:how about|what if we|we could try|we might want to)\b/gi },
  {
    category: "personal-speculation",
    pattern: new RegExp(
      `${I} (?:think|guess|believe|assume|suppose|reckon|suspect|imagine|feel like)\\b`,
      "gi",
    ),
  },
  { category: "personal-speculation", pattern: /\b(?:i|we) (?:don't|do not) (?:think|believe)\b/gi },
  {
    category: "personal-speculation",
    pattern: /\b(?:in my (?:opinion|view)|imo|imho|my (?:guess|hunch) is)\b/gi,
  },
  { category: "personal-speculation", pattern: /\b(?:maybe|perhaps)\b/gi },
  {
    category: "admitted-uncertainty",
    pattern: /\b(?:i|we) (?:don't|do not|didn't|did not) (?:know|remember|recall)\b/gi,
  },
  { category: "admitted-uncertainty", pattern: /(?:\bnot|n't) (?:sure|certain)\b/gi },
  { category: "admitted-uncertainty", pattern: /\b(?:i|we) (?:could|might|may) be (?:wrong|mistaken)\b/gi },
  {
    category: "admitted-uncertainty",
    pattern:
      /\b(?:unsure|uncertain|no idea|iirc|afaik|as far as i know|if i (?:recall|remember) (?:correctly|right))\b/gi,
  },
  {
    category: "technical-hedge",
    pattern:
      /\b(?:may|might|could|should|typically|often|usually|generally|likely|unlikely|probably|possibly|potentially|sometimes|occasionally|mostly|seems?|appears? to|tends? to|in most cases)\b/gi,
  },
  {
    category: "approximation",
    pattern: /\b(?:approximately|roughly|nearly|almost|circa|or so|give or take|ballpark|estimated)\b/gi,
  },
  // "around" and "about" are prepositions unless they qualify a number ("around 100ms", "about $5").
  { category: "approximation", pattern: /(?:\b(?:around|about)|~)(?= ?[$€£]?\d)/gi },
];
