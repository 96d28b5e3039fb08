import { type Claim, type EvidenceSource, evidenceCharacters } from "../model/layer.js";
import type { LayerResult } from "../model/layer-result.js";
import type { Span } from "../model/span.js";
import { isStopword, stem } from "../text/tokens.js";
import type { FocusIndexCache } from "./focus-index.js";
import { type Passage, passagesOf } from "./passages.js";
import { termFinder } from "./term-finder.js";

/** When and how far very large evidence is narrowed to the passages that concern the answer. */
export interface EvidenceFocus {
  /** Evidence of more characters than this (sources and context together) is focused; smaller evidence never is. */
  readonly above: number;
  /**
   * Characters of passages kept, at least; grows with the answer (`perAnswerCharacter` per character of the
   * claims), so a long answer keeps room for the passages of every claim.
   */
  readonly keep: number;
  /** Characters of passages kept per character of the claims, when that is more than `keep`. */
  readonly perAnswerCharacter: number;
}

export const defaultEvidenceFocus: EvidenceFocus = {
  above: 1_000_000,
  keep: 100_000,
  perAnswerCharacter: 20,
};

/** What focusing kept, reported with the result so a reader knows which text the verdict was read against. */
export interface FocusReport {
  /** Characters of the evidence as sent (sources and context). */
  readonly totalCharacters: number;
  /** Characters of the passages the layers read. */
  readonly keptCharacters: number;
  /** How many passages were kept. */
  readonly passagesKept: number;
  /** How many passages the evidence was cut into. */
  readonly passages: number;
}

export interface FocusedEvidence {
  /** What the layers read: each source as the passages kept from it, in order, a blank line between them. */
  readonly evidence: readonly EvidenceSource[];
  /** A span of a focused source (by evidence index) as offsets into the text the caller sent. */
  readonly toOriginal: (source: number, span: Span) => Span;
  /** Present when the evidence was focused. */
  readonly report?: FocusReport;
}

/**
 * What the answer's passages are searched for: the stems of its content words (a stem found at the start of a
 * word also finds the word's other endings) and its figures as written, lower-cased.
 */
const queryTerms = (claims: readonly Claim[]): string[] => {
  const terms = new Set<string>();
  for (const claim of claims)
    for (const word of claim.text.toLowerCase().match(/[\p{L}\p{N}]+(?:[.,][\p{N}]+)*/gu) ?? []) {
      if (/\p{N}/u.test(word)) {
        if (word.replace(/\D/g, "").length >= 2) terms.add(word);
      } else if (word.length >= 3 && !isStopword(word)) terms.add(stem(word));
    }
  return [...terms].filter((term) => term.length >= 2);
};

/** Index of the passage holding offset `at` of `source` (passages are in order). */
const passageAt = (passages: readonly Passage[], source: number, at: number): number => {
  let low = 0;
  let high = passages.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    const passage = passages[middle] as Passage;
    if (passage.source < source || (passage.source === source && passage.start <= at)) low = middle;
    else high = middle - 1;
  }
  return low;
};

/**
 * The evidence narrowed to the passages that concern the claims, when it is larger than `focus.above`: each
 * passage (a block between blank lines) is scored by the rarer words and the figures of the claims it holds,
 * each term weighted by how few passages hold it (inverse document frequency), and the best passages are kept
 * up to the budget, each with the heading before it, if any (a table's caption or a heading that gives its
 * scale). Each source becomes its kept passages in order, a blank line between those that were apart;
 * `toOriginal` turns an offset the layers report back into one of the text the caller sent. The cost is one
 * scan of the text, instead of reading every sentence and figure of every source: the layers then read the
 * kept passages only. A claim whose support lies outside the kept passages is found unsupported, never
 * supported (a false alarm, not a false pass); a passage that contradicts a claim shares its words, so it
 * ranks with the passages that support it, and is missed only when the budget is full of better-matching
 * ones.
 */
export const focusEvidence = (
  evidence: readonly EvidenceSource[],
  claims: readonly Claim[],
  focus: EvidenceFocus = defaultEvidenceFocus,
  indexes?: FocusIndexCache,
): FocusedEvidence => {
  const total = evidenceCharacters(evidence);
  if (total <= focus.above) return { evidence, toOriginal: (_source, span) => span };
  const claimCharacters = claims.reduce((sum, claim) => sum + claim.text.length, 0);
  const budget = Math.max(focus.keep, claimCharacters * focus.perAnswerCharacter);
  const terms = queryTerms(claims);
  const findTerms = termFinder(terms);
  // The texts read before, indexed; none when the terms need the scan's pair folding.
  const indexed = evidence.map((source) =>
    findTerms.byWordStarts === undefined ? undefined : indexes?.get(source.text),
  );
  const passages = evidence.flatMap((source, position) => {
    const index = indexed[position];
    return index === undefined
      ? passagesOf(source.text, position)
      : index.passages.map(({ start, end }) => ({ source: position, start, end }));
  });
  const holders = terms.map(() => [] as number[]);
  let firstOfSource = 0;
  for (const [position, source] of evidence.entries()) {
    const first = firstOfSource;
    while (firstOfSource < passages.length && (passages[firstOfSource] as Passage).source === position)
      firstOfSource += 1;
    const index = indexed[position];
    if (index !== undefined && findTerms.byWordStarts !== undefined) {
      // Each term's finds in text order, with the passage each lies in: the same lists as the scan below.
      findTerms.byWordStarts(source.text, index.starts, (term, _offset, part) => {
        const list = holders[term] as number[];
        const holder = first + part;
        if (list.at(-1) !== holder) list.push(holder);
      });
      continue;
    }
    // Terms are found in text order, so the passage holding each is found by moving forward from the last
    // one (`passageAt` answers the same, by halves, for every find).
    let holder = passageAt(passages, position, 0);
    findTerms.find(source.text, (term, offset) => {
      for (
        let next = passages[holder + 1];
        next !== undefined && next.source === position && next.start <= offset;
        next = passages[holder + 1]
      )
        holder += 1;
      const list = holders[term] as number[];
      if (list.at(-1) !== holder) list.push(holder);
    });
  }
  const weights = new Float64Array(passages.length);
  for (const list of holders) {
    const weight = Math.log(1 + passages.length / Math.max(1, list.length));
    for (const holder of list) weights[holder] = (weights[holder] ?? 0) + weight;
  }

  const order = [...passages.keys()]
    .filter((index) => (weights[index] ?? 0) > 0)
    .sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0) || a - b);
  const kept = new Uint8Array(passages.length);
  let keptCharacters = 0;
  const keepPassage = (index: number): boolean => {
    const passage = passages[index] as Passage;
    const length = passage.end - passage.start;
    if (kept[index] === 1 || keptCharacters + length > budget) return false;
    kept[index] = 1;
    keptCharacters += length;
    return true;
  };
  for (const index of order) {
    if (keptCharacters >= budget) break;
    if (!keepPassage(index)) continue;
    const before = passages[index - 1];
    if (before && before.source === (passages[index] as Passage).source && isHeading(evidence, before))
      keepPassage(index - 1);
  }
  // Nothing of the claims is in the evidence: its opening passages are kept, so the layers still read sources
  // and find the claims unsupported, as they would reading it all, rather than find no sources to read.
  if (keptCharacters === 0)
    for (const index of passages.keys()) if (!keepPassage(index) && keptCharacters > 0) break;

  const segments: Segment[][] = evidence.map(() => []);
  // Passages are in source order: each source's run of them starts where the one before ends.
  let first = 0;
  const focused = evidence.map((source, position) => {
    const pieces: string[] = [];
    let length = 0;
    for (; first < passages.length && (passages[first] as Passage).source === position; first += 1) {
      const index = first;
      const passage = passages[index] as Passage;
      if (kept[index] !== 1) continue;
      const own = segments[position] as Segment[];
      const last = own.at(-1);
      const size = passage.end - passage.start;
      // Passages that touch in the source (a long block cut in two) stay one segment, as they were written.
      if (last && last.original + last.length === passage.start)
        own[own.length - 1] = { ...last, length: last.length + size };
      else {
        if (pieces.length > 0) {
          pieces.push(gap);
          length += gap.length;
        }
        own.push({ focused: length, original: passage.start, length: size });
      }
      pieces.push(source.text.slice(passage.start, passage.end));
      length += size;
    }
    return { ...source, text: pieces.join("") };
  });
  return {
    evidence: focused,
    toOriginal: (source, span) => toOriginal(segments[source] ?? [], span),
    report: {
      totalCharacters: total,
      keptCharacters,
      passagesKept: kept.reduce((sum, flag) => sum + flag, 0),
      passages: passages.length,
    },
  };
};

/** An end mark, maybe closed by a quote or bracket (made once: a literal is a new object each time it is read). */
const endsSentence = /[.!?]["')\]]?$/;

/** A heading or a caption: a short passage that does not end as a sentence does ("(in millions)", "Note 4"). */
const isHeading = (evidence: readonly EvidenceSource[], passage: Passage): boolean => {
  if (passage.end - passage.start > 200) return false;
  const text = (evidence[passage.source] as EvidenceSource).text.slice(passage.start, passage.end).trimEnd();
  return !endsSentence.test(text);
};

/** Where a run of the focused text came from in its source. */
interface Segment {
  readonly focused: number;
  readonly original: number;
  readonly length: number;
}

// What separates two kept passages that were apart in the source: a blank line, as between paragraphs.
const gap = "\n\n";

/** A span of a focused source as offsets into the source the caller sent. */
const toOriginal = (segments: readonly Segment[], span: Span): Span => {
  const at = (offset: number, isEnd: boolean): number => {
    for (const segment of segments) {
      const within = isEnd
        ? offset > segment.focused && offset <= segment.focused + segment.length
        : offset >= segment.focused && offset < segment.focused + segment.length;
      if (within) return segment.original + offset - segment.focused;
    }
    // In a gap: the end of the segment before it.
    const before = segments.filter((segment) => segment.focused + segment.length <= offset).at(-1);
    return before ? before.original + before.length : (segments[0]?.original ?? 0);
  };
  const start = at(span.start, false);
  return { start, end: Math.max(start, at(span.end, true)) };
};

/** A layer's result with the spans of its evidence passages turned into offsets of the caller's sources. */
export const withOriginalSpans = (result: LayerResult, focused: FocusedEvidence): LayerResult =>
  focused.report === undefined || result.claims === undefined
    ? result
    : {
        ...result,
        claims: result.claims.map((claim) => ({
          ...claim,
          evidence: claim.evidence.map((item) => ({
            ...item,
            span: focused.toOriginal(item.source, item.span),
          })),
        })),
      };
