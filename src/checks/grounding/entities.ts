import { hasDigit } from "../../text/ascii.js";
import { isStopword, type Token } from "../../text/tokens.js";
import type { ClaimContext, GroundingFinding } from "./claim-context.js";

// Expressions read for each word of each claim, made once: a regular expression literal is a new object each
// time it is evaluated.
const startsUpper = /^\p{Lu}/u;
const acronym = /^\p{Lu}[\p{Lu}\d.&-]+$/u;
/** What ends the text before a word that opens a sentence: an end mark, a colon or an opening quote. */
const endsSentence = /[.!?:"“]\s*$/;
/** What may stand between two words of one name: a few spaces, lower-case letters, apostrophes or dashes. */
const nameJoiner = /^[\s\p{Ll}'’-]{0,6}$/u;

const isCapitalized = (text: string): boolean => startsUpper.test(text);
const isAcronym = (text: string): boolean => acronym.test(text) && text.length >= 2;

/**
 * Name-like tokens of a claim: capitalized words not opening the sentence, and acronyms anywhere.
 * Sentence-initial capitals are ambiguous ("The", "However") and are left to the coverage score.
 */
export const nameTokens = (context: ClaimContext): Token[] => {
  const names: Token[] = [];
  context.tokens.forEach((token, position) => {
    if (hasDigit(token.text) || isStopword(token.lower)) return;
    if (isAcronym(token.text)) {
      names.push(token);
      return;
    }
    // Only a capitalized word needs to know whether it opens the sentence (most words are not).
    if (!isCapitalized(token.text)) return;
    const before = context.claim.text.slice(
      Math.max(0, token.span.start - context.claim.span.start - 4),
      token.span.start - context.claim.span.start,
    );
    const opensSentence = position === 0 || endsSentence.test(before);
    if (!opensSentence) names.push(token);
  });
  return names;
};

/** Adjacent missing name tokens ("Leonardo da Vinci") become one finding over the whole name. */
const groupAdjacent = (
  tokens: readonly Token[],
  text: string,
  offset: number,
): { start: number; end: number }[] => {
  const groups: { start: number; end: number }[] = [];
  for (const token of tokens) {
    const last = groups.at(-1);
    const between = last ? text.slice(last.end - offset, token.span.start - offset) : "";
    if (last && nameJoiner.test(between) && between.split(/\s+/).length <= 3) last.end = token.span.end;
    else groups.push({ ...token.span });
  }
  return groups;
};

/** Names in a claim that the sources never mention, and names the sources mention elsewhere only. */
export const checkEntities = (context: ClaimContext): GroundingFinding[] => {
  const findings: GroundingFinding[] = [];
  const names = nameTokens(context);
  const missing = names.filter((token) => !context.index.stems.has(token.stem));
  for (const span of groupAdjacent(missing, context.claim.text, context.claim.span.start)) {
    const name = context.claim.text.slice(
      span.start - context.claim.span.start,
      span.end - context.claim.span.start,
    );
    findings.push({
      code: "ENTITY_NOT_IN_SOURCES",
      message: `"${name}" is not mentioned in the sources`,
      span,
      penalty: 0.4,
      contradicts: false,
    });
  }
  for (const token of names) {
    if (!context.index.stems.has(token.stem)) continue;
    if (context.window.length > 0 && !context.windowStems.has(token.stem)) {
      findings.push({
        code: "ENTITY_NOT_IN_ALIGNED_PASSAGE",
        message: `"${token.text}" appears in the sources, but not in the passage this claim matches`,
        span: token.span,
        penalty: 0.75,
        contradicts: false,
      });
    }
  }
  return findings;
};
