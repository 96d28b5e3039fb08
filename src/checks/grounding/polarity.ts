import { isStopword, stem, type Token } from "../../text/tokens.js";
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

/** Whether a word is a negation cue ("not", "never", "failed", any word ending in "n't"). */
export const isNegation = (token: Token): boolean =>
  negationCues.has(token.lower) || token.lower.endsWith("n't");

/** The stems of the negation cues: a word that is a cue has one of these stems, or one ending in "n't". */
const negationCueStems: ReadonlySet<string> = new Set([...negationCues].map(stem));

/**
 * Whether a passage may hold a negation cue, read off the stems the index keeps for it, without tokenizing it:
 * a word that is one of the cues stems to one of the cues' stems, and a word ending in "n't" keeps that ending
 * when stemmed (the stemmer changes only endings in "s", "ing", "ed", "ly" and "e"). False means the passage
 * holds none; true means it may (another word can share a cue's stem).
 */
export const mayHoldNegation = (passage: Passage): boolean => {
  for (const passageStem of passage.stemSequence)
    if (negationCueStems.has(passageStem) || passageStem.endsWith("n't")) return true;
  return false;
};

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
  const claimCues = negationsAbout(context.tokens, best.stems);
  // Most passages hold no cue at all: they are then not tokenized for one.
  const passageCues = mayHoldNegation(best)
    ? negationsAbout(best.tokens, new Set(context.tokens.map((token) => token.stem)))
    : [];
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
