import { isStopword, type Token } from "../../text/tokens.js";
import type { ClaimContext, GroundingFinding } from "./claim-context.js";
import type { Passage } from "./source-index.js";

const negationCues = new Set([
  "not",
  "no",
  "never",
  "none",
  "nobody",
  "nothing",
  "neither",
  "nor",
  "without",
  "cannot",
  "lack",
  "lacks",
  "lacked",
  "unable",
  "fail",
  "fails",
  "failed",
  "refuse",
  "refused",
  "denied",
  "deny",
]);

const isNegation = (token: Token): boolean => negationCues.has(token.lower) || token.lower.endsWith("n't");

const interjections = new Set(["yes", "yeah", "yep", "no", "nope", "nah"]);

/**
 * Negation cues whose scope (the next few words) mentions something the other text also mentions: "never
 * fumbled" says nothing against a claim that does not speak of fumbling. A reply's opening "no," is an
 * answer, not a negation of the claim's content.
 */
const negationsAbout = (tokens: readonly Token[], otherStems: { has(stem: string): boolean }): Token[] =>
  tokens.filter((token, position) => {
    if (!isNegation(token)) return false;
    if (position === 0 && interjections.has(token.lower)) return false;
    const scope = tokens.slice(position + 1, position + 5);
    return scope.some((word) => otherStems.has(word.stem) && !isStopword(word.lower));
  });

/** Share of the claim's content stems that a passage contains. */
const overlap = (context: ClaimContext, passage: Passage): number => {
  const stems = new Set(context.contentTokens.map((token) => token.stem));
  if (stems.size === 0) return 0;
  let shared = 0;
  for (const stem of stems) if (passage.stems.has(stem)) shared++;
  return shared / stems.size;
};

/**
 * A negation in the claim that its best-matching passage lacks, or the reverse, when the two otherwise say
 * nearly the same thing: "X did not approve Y" against "X approved Y".
 */
export const checkNegation = (context: ClaimContext): GroundingFinding[] => {
  const best = context.alignments[0]?.passage;
  if (!best || overlap(context, best) < 0.6) return [];
  const claimStems = new Set(context.tokens.map((token) => token.stem));
  const claimCues = negationsAbout(context.tokens, best.stems);
  const passageCues = negationsAbout(best.tokens, claimStems);
  if (claimCues.length % 2 === passageCues.length % 2) return [];
  const span = claimCues[0]?.span ?? context.claim.span;
  return [
    {
      code: "NEGATION_MISMATCH",
      message:
        claimCues.length > 0
          ? `the claim negates what the source states: "${best.text.slice(0, 160)}"`
          : `the source negates what the claim states: "${best.text.slice(0, 160)}"`,
      span,
      penalty: 0.3,
      contradicts: true,
    },
  ];
};
