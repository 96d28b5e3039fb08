import type { Span } from "../../model/span.js";
import { isFalsePositive } from "./false-positives.js";
import { actionOfCategory, type HedgeAction, type HedgeCategory, hedgePatterns } from "./hedge-patterns.js";

export interface HedgeMatch {
  readonly phrase: string;
  readonly category: HedgeCategory;
  readonly span: Span;
}

export interface HedgeResult {
  /** Any hedge at all was found. */
  readonly isSpeculative: boolean;
  /** `block` when any blocking hedge is present, whatever else the claim asserts ("I think X, definitely"). */
  readonly action: HedgeAction;
  readonly hedges: readonly HedgeMatch[];
}

const urlPattern = /https?:\/\/[^\s<>"]+/gi;

/** URLs are blanked (offsets kept) so "https://x.dev/may-be" is not a hedge. */
const blankUrls = (text: string): string => text.replace(urlPattern, (url) => " ".repeat(url.length));

const overlaps = (a: Span, b: Span): boolean => a.start < b.end && b.start < a.end;

/**
 * Finds the hedges of a claim. There is no bypass: an assertion marker ("definitely", "certainly") never
 * cancels a blocking hedge; only the three false-positive filters (a month, "could not", a numeric "should
 * be") remove a match.
 */
export const detectHedges = (claim: string): HedgeResult => {
  const text = blankUrls(claim.replace(/’/g, "'"));
  const hedges: HedgeMatch[] = [];
  for (const { category, pattern } of hedgePatterns) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      const span = { start, end: start + match[0].length };
      if (isFalsePositive({ text, word: match[0], start: span.start, end: span.end })) continue;
      // A longer phrase already found ("maybe we should") keeps its category over its parts ("maybe").
      if (hedges.some((found) => overlaps(found.span, span))) continue;
      hedges.push({ phrase: claim.slice(span.start, span.end), category, span });
    }
  }
  hedges.sort((a, b) => a.span.start - b.span.start);
  const actions = hedges.map((hedge) => actionOfCategory[hedge.category]);
  const action: HedgeAction = actions.includes("block")
    ? "block"
    : actions.includes("review")
      ? "review"
      : "continue";
  return { isSpeculative: hedges.length > 0, action, hedges };
};
