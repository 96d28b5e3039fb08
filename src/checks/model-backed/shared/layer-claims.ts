import type { Claim, LayerInput } from "../../../model/layer.js";
import { neutralize } from "./prompt-safety.js";

/** At most this many claims are sent to a model in one layer run; the rest are reported as not judged. */
export const maxJudgedClaims = 40;

export interface JudgedClaims {
  readonly claims: readonly Claim[];
  /** Claims beyond `maxJudgedClaims`, not judged. */
  readonly notJudged: number;
}

/**
 * The claims a model layer judges: the segmented claims, or the whole text as one claim when the
 * segmenter found none (a single fragment), capped at `maxJudgedClaims`.
 */
/** The whole text as one claim, for a fragment the segmenter did not split into claims. */
const wholeTextClaim = (text: string): Claim[] => {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  const start = text.indexOf(trimmed);
  return [{ index: 0, text: trimmed, span: { start, end: start + trimmed.length }, kind: "factual" }];
};

export const claimsToJudge = (input: LayerInput): JudgedClaims => {
  const claims = input.claims.length > 0 ? input.claims : wholeTextClaim(input.text);
  return {
    claims: claims.slice(0, maxJudgedClaims),
    notJudged: Math.max(0, claims.length - maxJudgedClaims),
  };
};

/** Claims as a numbered list for a prompt ("[0] ..."); the numbers are positions in the list. */
export const numberedClaims = (claims: readonly Claim[]): string =>
  claims.map((claim, position) => `[${position}] ${neutralize(claim.text.replace(/\s+/g, " "))}`).join("\n");
