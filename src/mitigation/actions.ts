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

/** The failing claims merged into non-overlapping regions clipped to the text, in text order. */
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
  return regions;
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
  // Built in one pass from the pieces between the markers: writing each marker into the text made so far read
  // that whole text again, once per region (an answer's thousands of failing sentences took their square).
  const pieces: string[] = [];
  let cursor = 0;
  for (const region of failingRegions(text, claims)) {
    pieces.push(text.slice(cursor, region.end), markerFor(region.claims));
    cursor = region.end;
  }
  pieces.push(text.slice(cursor));
  return pieces.join("");
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
  // Built in one pass from the pieces kept between the regions (cutting each region out of the text made so
  // far read that whole text again, once per region). A region takes the spaces and tabs after it with it, up
  // to where the next region starts.
  const regions = failingRegions(text, claims);
  const kept: string[] = [];
  const removed: string[] = [];
  let cursor = 0;
  for (let at = 0; at < regions.length; at++) {
    const region = regions[at] as FailingRegion;
    const next = regions[at + 1]?.start ?? text.length;
    removed.push(text.slice(region.start, region.end));
    kept.push(text.slice(cursor, region.start));
    let end = region.end;
    while (end < next && (text[end] === " " || text[end] === "\t")) end++;
    cursor = end;
  }
  kept.push(text.slice(cursor));
  const result = kept.join("");
  if (removed.length === 0) return { text, removed };
  const note = `[${removed.length} unsupported ${removed.length === 1 ? "statement was" : "statements were"} removed]`;
  return { text: `${result.trimEnd()}\n\n${note}`, removed };
};
