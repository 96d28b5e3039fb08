import type { Claim } from "../../../model/layer.js";
import type { Span } from "../../../model/span.js";

const words = (text: string): Set<string> => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);

const overlap = (a: Set<string>, b: Set<string>): number => {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / Math.min(a.size, b.size);
};

/** Where `needle` occurs in `haystack`: exactly, then ignoring case, then ignoring runs of whitespace. */
export const findSpan = (haystack: string, needle: string): Span | undefined => {
  const target = needle.trim();
  if (target === "") return undefined;
  const exact = haystack.indexOf(target);
  if (exact !== -1) return { start: exact, end: exact + target.length };
  const folded = haystack.toLowerCase().indexOf(target.toLowerCase());
  if (folded !== -1) return { start: folded, end: folded + target.length };
  const escaped = target.split(/\s+/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const match = new RegExp(escaped.join("\\s+"), "i").exec(haystack);
  return match === null ? undefined : { start: match.index, end: match.index + match[0].length };
};

/** Position of the claim sharing most words with `fact` (at least half of the smaller word set), or -1. */
export const closestClaim = (fact: string, claims: readonly Claim[]): number => {
  const factWords = words(fact);
  let best = -1;
  let bestScore = 0.5;
  claims.forEach((claim, position) => {
    const score = overlap(factWords, words(claim.text));
    if (score > bestScore) {
      best = position;
      bestScore = score;
    }
  });
  return best;
};

/**
 * The span in the verified text of a fact the model wrote: where it occurs verbatim, else the span of
 * the segmented claim sharing most words with it, else the span of the claim it was derived from.
 */
export const locateFact = (text: string, fact: string, claims: readonly Claim[], fallback: Span): Span => {
  const found = findSpan(text, fact);
  if (found !== undefined) return found;
  return claims[closestClaim(fact, claims)]?.span ?? fallback;
};
