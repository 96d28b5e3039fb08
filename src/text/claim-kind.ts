import type { ClaimKind } from "../model/claim.js";

// Word lists kept short and literal: every pattern is a plain alternation between word boundaries (linear).
const opinionPattern =
  /\b(?:i (?:think|feel|believe|love|like|prefer|hate|guess|suppose)|in my (?:opinion|view)|personally|my favou?rite|(?:the )?(?:best|worst)|amazing|awesome|wonderful|terrible|beautiful|great|boring|fun|cool|interesting)\b/i;
const uncertainPattern =
  /\b(?:may|might|could|possibly|perhaps|maybe|probably|likely|unlikely|presumably|apparently|seems?|appears?|not sure|unclear|uncertain|it is possible)\b/i;
const inferencePattern =
  /\b(?:therefore|thus|hence|consequently|so it|which means|this means|implies|implying|suggests?|suggesting|indicates?|indicating)\b/i;

/** A cheap, offline reading of what a claim asserts; the model-backed layers may refine it. */
export const classifyClaim = (text: string): ClaimKind => {
  if (inferencePattern.test(text)) return "inference";
  if (uncertainPattern.test(text)) return "uncertain";
  if (opinionPattern.test(text)) return "opinion";
  return "factual";
};
