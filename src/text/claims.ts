import type { Claim } from "../model/layer.js";
import { classifyClaim } from "./claim-kind.js";
import { type SegmentOptions, splitSentences } from "./sentences.js";

export interface ClaimOptions extends SegmentOptions {
  /** Split a sentence at semicolons when each side has at least this many words (default 4). */
  readonly minClauseWords?: number;
}

const wordCount = (text: string): number => text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;

/** Clause spans of a sentence, split at "; " when both sides are substantial. Offsets into the sentence. */
const clauses = (sentence: string, minWords: number): { start: number; end: number }[] => {
  const pieces: { start: number; end: number }[] = [];
  let start = 0;
  for (let i = sentence.indexOf("; "); i !== -1; i = sentence.indexOf("; ", i + 2)) {
    const left = sentence.slice(start, i);
    const right = sentence.slice(i + 2);
    if (wordCount(left) >= minWords && wordCount(right) >= minWords) {
      pieces.push({ start, end: i });
      start = i + 2;
    }
  }
  pieces.push({ start, end: sentence.length });
  return pieces;
};

/** Whether a sentence asks rather than asserts: a question is kept, as an uncertain claim. */
const isQuestion = (text: string): boolean => /\?["'”’)\]]*$/.test(text.trim());

/**
 * Splits a text into claims with exact offsets into it. A claim is a sentence, or a clause of one joined by
 * a semicolon. Questions are kept with kind "uncertain": they assert nothing, yet in grounded dialogue an
 * unprompted question is still content the sources do not support.
 */
export const segmentClaims = (text: string, options: ClaimOptions = {}): Claim[] => {
  const minWords = options.minClauseWords ?? 4;
  const claims: Claim[] = [];
  for (const sentence of splitSentences(text, options)) {
    for (const clause of clauses(sentence.text, minWords)) {
      const start = sentence.span.start + clause.start;
      const end = sentence.span.start + clause.end;
      const claimText = text.slice(start, end);
      const kind = isQuestion(claimText) ? "uncertain" : classifyClaim(claimText);
      claims.push({ index: claims.length, text: claimText, span: { start, end }, kind });
    }
  }
  return claims;
};
