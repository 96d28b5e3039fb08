import type { ClaimFinding } from "../model/claim.js";
import { failingClaims, maxDescribedFailures } from "./failure-report.js";

/**
 * The reply that asks for sources instead of asserting: names each statement that could not be verified and
 * asks for a document that supports it. The verified text is not repeated as fact.
 */
export const requestSources = (claims: readonly ClaimFinding[]): string => {
  const failing = failingClaims(claims);
  if (failing.length === 0)
    return "I could not verify this answer against the available sources. Could you share a source that covers it?";
  const listed = failing.slice(0, maxDescribedFailures).map((claim) => `- ${claim.text.trim()}`);
  const rest = failing.length - listed.length;
  return [
    "I could not verify these statements against the available sources:",
    ...listed,
    ...(rest > 0 ? [`- and ${rest} more`] : []),
    "",
    "Could you share a source (a document, link or record) that supports them? I will answer from it.",
  ].join("\n");
};
