import type { ClaimFinding } from "../model/claim.js";
import { describeFailingClaim, describeFailures } from "./failure-report.js";

/** The whole-text rewrite, given the specific failures and their evidence. */
export const regeneratePrompt = (
  text: string,
  failedLayers: readonly string[],
  claims: readonly ClaimFinding[],
): string =>
  [
    `The text below failed verification (${failedLayers.join(", ")}). These are the specific failures, with the evidence:`,
    "",
    describeFailures(claims) || "(no claim-level detail: the text as a whole scored low)",
    "",
    "Rewrite the text so that every statement is supported by the evidence. Correct values that the evidence",
    "states differently, remove statements nothing supports, keep every other sentence exactly as it is, and",
    "do not add new facts. Reply with the rewritten text only.",
    "",
    "TEXT:",
    text,
  ].join("\n");

/** The rewrite of one failing claim on its own: the decomposed retry. */
export const rewriteClaimPrompt = (claim: ClaimFinding): string =>
  [
    "One statement of a longer answer failed verification:",
    "",
    describeFailingClaim(claim),
    "",
    "Rewrite only this statement so that it says what the evidence supports. If nothing supports it, reply",
    "with the single word REMOVE. Reply with the statement only.",
  ].join("\n");

export const removeMarker = "REMOVE";
