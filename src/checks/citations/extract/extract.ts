import type { ExtractedCitation } from "../citation.js";
import {
  addressChecksumProblem,
  hexLengthProblem,
  looksLikeCommit,
  timestampProblem,
  trimUrl,
} from "./format-checks.js";
import { builtInPatterns, type CitationPattern, proseIdentifierPatterns } from "./patterns.js";
import { readProseIdentifier } from "./prose-identifier.js";

export interface ExtractOptions {
  /** Extra kinds from configuration, tried alongside the built-ins. */
  readonly customPatterns?: readonly CitationPattern[];
  /** Most citations kept from one text (default 10,000); `truncated` says when more were found. */
  readonly maxCitations?: number;
  /** Also read transaction hashes and addresses written in prose (`0x...`), cut-short ones included. */
  readonly proseIdentifiers?: boolean;
}

export interface Extraction {
  readonly citations: readonly ExtractedCitation[];
  readonly truncated: boolean;
}

export const defaultMaxCitations = 10_000;
const surroundingChars = 50;

interface Candidate {
  readonly pattern: CitationPattern;
  readonly start: number;
  readonly end: number;
  readonly raw: string;
  readonly captured: string;
  /** Set by a reader that already knows the value is malformed. */
  readonly problem?: string;
}

const proseKind = "onchain-prose";

const firstCapture = (match: RegExpExecArray): string => {
  for (let group = 1; group < match.length; group += 1) {
    const value = match[group];
    if (value !== undefined) return value;
  }
  return match[0];
};

const candidatesOf = (text: string, pattern: CitationPattern, limit: number): Candidate[] => {
  const regex = new RegExp(
    pattern.pattern.source,
    pattern.pattern.flags.includes("g") ? pattern.pattern.flags : `${pattern.pattern.flags}g`,
  );
  const found: Candidate[] = [];
  for (let match = regex.exec(text); match !== null && found.length < limit; match = regex.exec(text)) {
    if (match[0].length === 0) {
      regex.lastIndex += 1;
      continue;
    }
    let raw = match[0];
    if (pattern.kind === "url") raw = trimUrl(raw);
    const captured = pattern.kind === "url" ? raw : firstCapture(match);
    if (pattern.kind === "commit" && !looksLikeCommit(captured, text, match.index)) continue;
    if (pattern.kind === proseKind) {
      const identifier = readProseIdentifier(
        captured,
        text.slice(Math.max(0, match.index - 24), match.index),
      );
      if (identifier === undefined) continue;
      found.push({
        pattern: { ...pattern, kind: identifier.kind },
        start: match.index,
        end: match.index + raw.length,
        raw,
        captured: identifier.value,
        ...(identifier.problem === undefined ? {} : { problem: identifier.problem }),
      });
      continue;
    }
    found.push({ pattern, start: match.index, end: match.index + raw.length, raw, captured });
  }
  return found;
};

/** Sorted, non-overlapping intervals already taken by higher-priority matches. */
class TakenIntervals {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  overlaps(start: number, end: number): boolean {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.starts[middle] ?? 0) < end) low = middle + 1;
      else high = middle;
    }
    // `low - 1` is the last interval starting before `end`: it overlaps when it ends after `start`.
    return low > 0 && (this.ends[low - 1] ?? 0) > start;
  }

  add(start: number, end: number): void {
    let index = this.starts.length;
    while (index > 0 && (this.starts[index - 1] ?? 0) > start) index -= 1;
    this.starts.splice(index, 0, start);
    this.ends.splice(index, 0, end);
  }
}

const formatProblemOf = (kind: string, value: string): string | undefined => {
  if (kind === "transaction") return hexLengthProblem(value, 64, "a transaction hash");
  if (kind === "address") return hexLengthProblem(value, 40, "an address") ?? addressChecksumProblem(value);
  if (kind === "block") return /^\d{1,12}$/.test(value) ? undefined : "not a block number";
  if (kind === "timestamp") return timestampProblem(value);
  return undefined;
};

const toCitation = (text: string, candidate: Candidate): ExtractedCitation => {
  const normalize = candidate.pattern.normalize ?? ((value: string) => value);
  const problem = candidate.problem ?? formatProblemOf(candidate.pattern.kind, candidate.captured);
  const value =
    candidate.pattern.kind === "address" ? candidate.captured.toLowerCase() : normalize(candidate.captured);
  return {
    kind: candidate.pattern.kind,
    value,
    raw: candidate.raw,
    span: { start: candidate.start, end: candidate.end },
    surroundingText: text.slice(
      Math.max(0, candidate.start - surroundingChars),
      candidate.end + surroundingChars,
    ),
    ...(problem === undefined ? {} : { formatProblem: problem }),
  };
};

/**
 * Finds every citation in `text`, in text order. Where matches overlap (a commit-like run inside a URL or a
 * `[TX:...]`), the higher-priority kind keeps the text. Linear in the length of the text for the built-in
 * patterns; custom patterns must be written without nested quantifiers to keep that promise.
 */
export const extractCitations = (text: string, options: ExtractOptions = {}): Extraction => {
  const limit = options.maxCitations ?? defaultMaxCitations;
  const patterns = [
    ...builtInPatterns,
    ...(options.proseIdentifiers === true ? proseIdentifierPatterns : []),
    ...(options.customPatterns ?? []),
  ].sort((a, b) => b.priority - a.priority);
  const taken = new TakenIntervals();
  const accepted: Candidate[] = [];
  let truncated = false;
  for (const pattern of patterns) {
    const candidates = candidatesOf(text, pattern, limit + 1);
    if (candidates.length > limit) truncated = true;
    for (const candidate of candidates.slice(0, limit)) {
      if (taken.overlaps(candidate.start, candidate.end)) continue;
      taken.add(candidate.start, candidate.end);
      accepted.push(candidate);
    }
  }
  accepted.sort((a, b) => a.start - b.start);
  if (accepted.length > limit) truncated = true;
  return { citations: accepted.slice(0, limit).map((candidate) => toCitation(text, candidate)), truncated };
};
