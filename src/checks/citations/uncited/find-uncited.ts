import type { Span } from "../../../model/span.js";
import type { ExtractedCitation } from "../citation.js";

export interface UncitedOptions {
  /** A factual pattern counts as cited when a citation starts within this many characters after it ends, or ends within it before it starts. Default 100. */
  readonly maxDistance: number;
  /** Extra factual-sounding patterns (global regular expressions without nested quantifiers). */
  readonly extraPatterns: readonly RegExp[];
  /** Most uncited statements reported for one text. */
  readonly maxFindings: number;
  /**
   * True by default: a citation counts only from the statement's own sentence (or right after its full
   * stop, "... to Bob. [TX:...]"), so one cited sentence does not cover the uncited claim next to it.
   */
  readonly withinSentence: boolean;
}

export const defaultUncitedOptions: UncitedOptions = {
  maxDistance: 100,
  extraPatterns: [],
  maxFindings: 1000,
  withinSentence: true,
};

const sentenceEnd = /[.!?](?=\s|$)|\n/;

/** No sentence ends between a citation that ends at `from` and a statement that starts at `to`. */
const sameSentenceBefore = (text: string, from: number, to: number) =>
  !sentenceEnd.test(text.slice(from, to));

/** At most the statement's own sentence end lies between it and a citation that starts at `to`. */
const sameSentenceAfter = (text: string, from: number, to: number) => {
  const gap = text.slice(from, to);
  const end = sentenceEnd.exec(gap);
  return end === null || gap.slice(end.index + 1).trim().length === 0;
};

/**
 * Factual-sounding phrases about the chain: amounts moved in any unit or token, sent/received, dates, block
 * numbers, raw hashes.
 */
export const factualPatterns: readonly RegExp[] = [
  /\btransferred\s\$?\d[\d,]{0,30}(?:\.\d{1,18})?/gi,
  /\bsent\s\d[\d,]{0,30}(?:\.\d{1,18})?\s?(?:ETH|ether|gwei|wei|tokens?)\b/gi,
  /\breceived\s[^.!?\n]{1,60}?\sfrom\b/gi,
  /\bon\s\d{4}-\d{2}-\d{2}\b/gi,
  /\b(?:at|in|during|within|by|since|before|after)\sblocks?\s(?:number\s)?#?\d{1,12}\b/gi,
  /\btransaction\s0x[0-9a-f]{0,64}/gi,
  /\bwallet\s0x[0-9a-f]{0,40}/gi,
  // Value moved on chain, in any unit or token ticker: "received 7.056 WETH", "withdrew 2,000 USDC".
  /\b(?:[Ss]ent|[Rr]eceived|[Tt]ransferred|[Pp]aid|[Mm]oved|[Ww]ithdrew|[Dd]eposited|[Ss]wapped|[Bb]ought|[Ss]old|[Mm]inted|[Bb]urned|[Bb]ridged|[Ss]tak(?:ed|ing))\s(?:about\s|roughly\s|approximately\s|nearly\s|over\s|exactly\s)?\$?\d[\d,]{0,30}(?:\.\d{1,18})?\s?(?:[A-Z][A-Z0-9]{1,9}|[Ee]ther|[Gg]wei|[Ww]ei|[Tt]okens?)\b/g,
];

export interface UncitedStatement {
  readonly span: Span;
  readonly text: string;
}

const firstAtOrAfter = (values: readonly number[], target: number) => {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((values[middle] ?? 0) < target) low = middle + 1;
    else high = middle;
  }
  return low;
};

const hasCitationNear = (
  text: string,
  span: Span,
  starts: readonly number[],
  ends: readonly number[],
  options: UncitedOptions,
) => {
  const distance = options.maxDistance;
  // The first citation starting in [span.start, span.end + distance]...
  const next = starts[firstAtOrAfter(starts, span.start)];
  if (next !== undefined && next <= span.end + distance) {
    if (next <= span.end || !options.withinSentence || sameSentenceAfter(text, span.end, next)) return true;
  }
  // ...or the last citation ending in [span.start - distance, span.end].
  const previous = ends[firstAtOrAfter(ends, span.end + 1) - 1];
  if (previous === undefined || previous < span.start - distance) return false;
  return previous > span.start || !options.withinSentence || sameSentenceBefore(text, previous, span.start);
};

/**
 * Factual-sounding statements with no citation near them. Linear: each pattern is bounded and scanned once;
 * nearness is a binary search over the sorted citation offsets and a look at the at most `maxDistance`
 * characters between.
 */
export const findUncitedStatements = (
  text: string,
  citations: readonly ExtractedCitation[],
  options: UncitedOptions = defaultUncitedOptions,
): UncitedStatement[] => {
  const starts = citations.map((citation) => citation.span.start).sort((a, b) => a - b);
  const ends = citations.map((citation) => citation.span.end).sort((a, b) => a - b);
  const found: UncitedStatement[] = [];
  for (const source of [...factualPatterns, ...options.extraPatterns]) {
    const pattern = new RegExp(source.source, source.flags.includes("g") ? source.flags : `${source.flags}g`);
    for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
      if (match[0].length === 0) {
        pattern.lastIndex += 1;
        continue;
      }
      const span = { start: match.index, end: match.index + match[0].length };
      if (hasCitationNear(text, span, starts, ends, options)) continue;
      if (found.some((statement) => statement.span.start < span.end && span.start < statement.span.end))
        continue;
      found.push({ span, text: match[0] });
      if (found.length >= options.maxFindings) return found.sort((a, b) => a.span.start - b.span.start);
    }
  }
  return found.sort((a, b) => a.span.start - b.span.start);
};
