import { addDisclaimer, defaultBlockedReply, defaultDisclaimer, redact } from "../../mitigation/actions.js";
import type { VerificationResult } from "../../model/result.js";

/** What an integration does with an answer that failed verification. */
export type MitigationMode = "disclaimer" | "redact" | "regenerate" | "block";

export interface MitigationTexts {
  readonly disclaimer?: string;
  readonly blockedReply?: string;
}

/**
 * The text an integration returns for a failed answer, without a model: `disclaimer` appends the disclaimer
 * once, `redact` cuts the failing claims (supported text kept byte for byte), `block` replaces the answer.
 * `regenerate` needs a model; when regeneration is exhausted the caller falls back to one of the others.
 */
export const mitigateOffline = (
  text: string,
  result: VerificationResult,
  mode: Exclude<MitigationMode, "regenerate">,
  texts: MitigationTexts = {},
): string => {
  switch (mode) {
    case "disclaimer":
      return addDisclaimer(text, texts.disclaimer ?? defaultDisclaimer);
    case "redact": {
      const redacted = redact(text, result.claims);
      // Nothing failing to cut (a layer failed as a whole): say so rather than pass the text as it is.
      return redacted.removed.length > 0
        ? redacted.text
        : addDisclaimer(text, texts.disclaimer ?? defaultDisclaimer);
    }
    case "block":
      return texts.blockedReply ?? defaultBlockedReply;
  }
};
