import type { ClaimFinding } from "../model/claim.js";
import type { LayerResult } from "../model/layer-result.js";
import type { Mitigation } from "../model/mitigation.js";
import { addDisclaimer, defaultBlockedReply, defaultDisclaimer, flagUncertain } from "./actions.js";

export interface MitigationSettings {
  readonly disclaimer: string;
  readonly blockedReply: string;
}

export const defaultMitigationSettings: MitigationSettings = {
  disclaimer: defaultDisclaimer,
  blockedReply: defaultBlockedReply,
};

/**
 * The mitigation by severity (the lowest score of the failed layers), without a model: below 0.2 the
 * response is blocked; below 0.5 it would be regenerated, which needs a model, so the failing claims are
 * flagged inline instead and the reason says so; otherwise a disclaimer is added.
 */
export const chooseOfflineMitigation = (
  text: string,
  failedLayers: readonly LayerResult[],
  claims: readonly ClaimFinding[],
  settings: MitigationSettings = defaultMitigationSettings,
): Mitigation => {
  const worst = Math.min(...failedLayers.map((layer) => layer.score));
  const names = failedLayers.map((layer) => layer.layer).join(", ");
  if (worst < 0.2) {
    return {
      action: "block-response",
      reason: `critical verification failure in [${names}] (score ${worst.toFixed(2)})`,
      originalText: text,
      correctedText: settings.blockedReply,
    };
  }
  if (worst < 0.5) {
    return {
      action: "flag-uncertain",
      reason: `verification failure in [${names}] (score ${worst.toFixed(2)}); regeneration needs a model, so the failing claims are flagged instead`,
      originalText: text,
      correctedText: flagUncertain(text, claims),
    };
  }
  return {
    action: "add-disclaimer",
    reason: `marginal verification in [${names}] (score ${worst.toFixed(2)})`,
    originalText: text,
    correctedText: addDisclaimer(text, settings.disclaimer),
  };
};
