import type { ClaimFinding } from "../model/claim.js";
import { failingClaims } from "./failure-report.js";

export const defaultDisclaimer =
  "Note: parts of this answer could not be verified against the provided sources and may be inaccurate.";

export const defaultBlockedReply =
  "I can't give a reliable answer to this: the response failed verification against the available evidence.";

/** Appends the disclaimer once: a text that already ends with it is left as it is. */
export const addDisclaimer = (text: string, disclaimer = defaultDisclaimer): string =>
  text.trimEnd().endsWith(disclaimer) ? text : `${text.trimEnd()}\n\n${disclaimer}`;

/** Failing claims whose spans overlap (a sub-claim inside a sentence, two layers' findings), as one region. */
interface FailingRegion {
  readonly start: number;
  readonly end: number;
  readonly claims: readonly ClaimFinding[];
}

/** The failing claims merged into non-overlapping regions clipped to the text, last region first. */
const failingRegions = (text: string, claims: readonly ClaimFinding[]): FailingRegion[] => {
  const sorted = failingClaims(claims)
    .map((claim) => ({
      claim,
      start: Math.max(0, Math.min(claim.span.start, text.length)),
      end: Math.max(0, Math.min(claim.span.end, text.length)),
    }))
    .filter((entry) => entry.end > entry.start)
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const regions: { start: number; end: number; claims: ClaimFinding[] }[] = [];
  for (const entry of sorted) {
    const last = regions.at(-1);
    if (last !== undefined && entry.start < last.end) {
      last.end = Math.max(last.end, entry.end);
      last.claims.push(entry.claim);
    } else regions.push({ start: entry.start, end: entry.end, claims: [entry.claim] });
  }
  return regions.reverse();
};

const markerFor = (claims: readonly ClaimFinding[]): string => {
  const contradicted = claims.some((claim) => claim.verdict === "contradicted");
  const reasons = [...new Set(claims.map((claim) => claim.issues[0]?.message ?? claim.verdict))].join("; ");
  return ` [${contradicted ? "contradicted" : "unverified"}: ${reasons}]`;
};

/**
 * Marks each failing claim inline, right after it: "… [unverified: the number 12 appears nowhere …]".
 * Overlapping failing claims get one marker after the region they cover, never a marker inside another.
 */
export const flagUncertain = (text: string, claims: readonly ClaimFinding[]): string => {
  let result = text;
  for (const region of failingRegions(text, claims))
    result = result.slice(0, region.end) + markerFor(region.claims) + result.slice(region.end);
  return result;
};

/**
 * Removes every failing claim and says what was removed. Supported text is kept byte for byte: only the
 * failing spans (and the white space they leave doubled) are cut; overlapping failing claims are cut once,
 * as the one region they cover.
 */
export const redact = (
  text: string,
  claims: readonly ClaimFinding[],
): { text: string; removed: string[] } => {
  let result = text;
  const removed: string[] = [];
  for (const region of failingRegions(text, claims)) {
    removed.unshift(text.slice(region.start, region.end));
    let end = region.end;
    while (end < result.length && (result[end] === " " || result[end] === "\t")) end++;
    result = result.slice(0, region.start) + result.slice(end);
  }
  if (removed.length === 0) return { text, removed };
  const note = `[${removed.length} unsupported ${removed.length === 1 ? "statement was" : "statements were"} removed]`;
  return { text: `${result.trimEnd()}\n\n${note}`, removed };
};
