import { Effect } from "effect";
import { InputError } from "../model/errors.js";
import { type Claim, type EvidenceSource, evidenceCharacters, type LayerInput } from "../model/layer.js";
import type { VerificationRequest } from "../model/request.js";
import { segmentClaims } from "../text/claims.js";
import type { VerificationSettings } from "./config.js";
import { type FocusedEvidence, focusEvidence } from "./focus-evidence.js";
import type { FocusIndexCache } from "./focus-index.js";

/** The evidence list of a request: every source in order, then the context. */
export const evidenceOf = (request: Pick<VerificationRequest, "sources" | "context">): EvidenceSource[] => {
  const evidence: EvidenceSource[] = (request.sources ?? []).map((text, index) => ({
    index,
    origin: "source",
    text,
  }));
  if (request.context !== undefined && request.context.trim() !== "") {
    evidence.push({ index: evidence.length, origin: "context", text: request.context });
  }
  return evidence;
};

export interface PreparedInput {
  /** What the layers see: at most `maxClaims` claims. */
  readonly input: LayerInput;
  /** Every claim of the text, including those over the limit. */
  readonly allClaims: readonly Claim[];
  /** The evidence the layers read: very large evidence narrowed to the passages that concern the claims. */
  readonly focused: FocusedEvidence;
}

/**
 * Checks the request's size limits and segments it once for every layer; very large evidence is focused, through
 * `focusIndexes` (the verifier's indexes of large texts it focused before) when given.
 */
export const prepareInput = (
  request: VerificationRequest,
  settings: VerificationSettings,
  focusIndexes?: FocusIndexCache,
): Effect.Effect<PreparedInput, InputError> =>
  Effect.suspend(() => {
    if (request.text.length > settings.maxTextLength) {
      return Effect.fail(
        new InputError({
          code: "TEXT_TOO_LARGE",
          message: `the text has ${request.text.length} characters; the limit is ${settings.maxTextLength}`,
        }),
      );
    }
    const evidence = evidenceOf(request);
    const evidenceLength = evidenceCharacters(evidence);
    if (evidenceLength > settings.maxEvidenceLength) {
      return Effect.fail(
        new InputError({
          code: "EVIDENCE_TOO_LARGE",
          message: `the sources and context have ${evidenceLength} characters; the limit is ${settings.maxEvidenceLength}`,
        }),
      );
    }
    const allClaims = segmentClaims(request.text);
    const claims = allClaims.slice(0, settings.maxClaims);
    const focused = focusEvidence(evidence, claims, settings.evidenceFocus, focusIndexes);
    const input: LayerInput = {
      text: request.text,
      claims,
      evidence: focused.evidence,
      // A focused context is read as focused by every layer, the model-backed ones included.
      ...(request.context !== undefined
        ? {
            context: focused.report
              ? (focused.evidence.find((source) => source.origin === "context")?.text ?? request.context)
              : request.context,
          }
        : {}),
      ...(request.question !== undefined ? { question: request.question } : {}),
      ...(request.maxCost !== undefined ? { maxCost: request.maxCost } : {}),
    };
    return Effect.succeed({ input, allClaims, focused });
  });
