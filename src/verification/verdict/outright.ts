import type { ClaimFinding } from "../../model/claim.js";

/**
 * A claim with no support at all: of its words (figures left out), at most a tenth stand in the passages that
 * match it best or beside them, and no single passage holds more than half of its content words. Such a
 * claim speaks of something the sources do not mention, which means the same in a dialogue, a summary or a
 * report: it fails the answer. A claim of a single word says too little to judge this way.
 */
export const unsupportedOutright = {
  minimumWords: 2,
  maximumNearbyShare: 0.1,
  maximumBestPassageShare: 0.5,
} as const;

export const isUnsupportedOutright = (claim: ClaimFinding): boolean =>
  claim.verdict === "unsupported" &&
  claim.signals !== undefined &&
  claim.signals.contentWords >= unsupportedOutright.minimumWords &&
  claim.signals.localCoverage <= unsupportedOutright.maximumNearbyShare &&
  claim.signals.bestPassageShare <= unsupportedOutright.maximumBestPassageShare;
