import type { ClaimFinding } from "../model/claim.js";
import { isFailingVerdict } from "../model/claim.js";

export const defaultDisclaimer =
  "Note: parts of this answer could not be verified against the provided sources and may be inaccurate.";

export const defaultBlockedReply =
  "I can't give a reliable answer to this: the response failed verification against the available evidence.";

/** Appends the disclaimer once: a text that already ends with it is left as it is. */
export const addDisclaimer = (text: string, disclaimer = defaultDisclaimer): string =>
  text.trimEnd().endsWith(disclaimer) ? text : `${text.trimEnd()}\n\n${disclaimer}`;

const failing = (claims: readonly ClaimFinding[]): ClaimFinding[] =>
  claims.filter((claim) => isFailingVerdict(claim.verdict)).sort((a, b) => b.span.start - a.span.start);

/** Marks each failing claim inline, right after it: "… [unverified: the number 12 appears nowhere …]". */
export const flagUncertain = (text: string, claims: readonly ClaimFinding[]): string => {
  let result = text;
  for (const claim of failing(claims)) {
    const reason = claim.issues[0]?.message ?? claim.verdict;
    const marker = ` [${claim.verdict === "contradicted" ? "contradicted" : "unverified"}: ${reason}]`;
    result = result.slice(0, claim.span.end) + marker + result.slice(claim.span.end);
  }
  return result;
};

/**
 * Removes every failing claim and says what was removed. Supported text is kept byte for byte: only the
 * failing spans (and the white space they leave doubled) are cut.
 */
export const redact = (
  text: string,
  claims: readonly ClaimFinding[],
): { text: string; removed: string[] } => {
  let result = text;
  const removed: string[] = [];
  for (const claim of failing(claims)) {
    removed.unshift(claim.text);
    let end = claim.span.end;
    while (end < result.length && (result[end] === " " || result[end] === "\t")) end++;
    result = result.slice(0, claim.span.start) + result.slice(end);
  }
  if (removed.length === 0) return { text, removed };
  const note = `[${removed.length} unsupported ${removed.length === 1 ? "statement was" : "statements were"} removed]`;
  return { text: `${result.trimEnd()}\n\n${note}`, removed };
};
