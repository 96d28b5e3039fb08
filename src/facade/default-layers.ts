import { makeGroundingLayer } from "../checks/grounding/index.js";
import { defaultIndexCacheLimits } from "../checks/grounding/index-cache.js";
import { makeNumbersLayer } from "../checks/numbers/index.js";
import type { VerificationLayer } from "../model/layer.js";
import { defaultSourceCacheLimits, type TextCacheLimits } from "../text/text-cache.js";

/**
 * The offline evidence layers every verifier has without configuration: grounding (claims against the
 * sources) and numbers (every number traced to a source, a recorded calculation or a derivation), each keeping
 * up to `sourceCache` of the single sources it read (the settings' `sourceCache`).
 */
export const defaultEvidenceLayers = (
  sourceCache: TextCacheLimits = defaultSourceCacheLimits,
): VerificationLayer[] => [
  makeGroundingLayer({}, { ...defaultIndexCacheLimits, sources: sourceCache }),
  makeNumbersLayer({}, sourceCache),
];
