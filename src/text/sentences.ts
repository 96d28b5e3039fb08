import type { Span } from "../model/span.js";
import { abbreviations, sentenceFinalAbbreviations, sentenceStarters } from "./abbreviations.js";
import { hasDigit, isAsciiLetter, isAsciiLetterOrDigit } from "./ascii.js";
import { isEndPunctuation, isSpaceOrBreak, isSpaceOrTab, isWhiteSpace } from "./char-classes.js";
import type { Sentence } from "./segment-types.js";
import { trimSpacesAndTabs } from "./trim.js";

export type { Sentence } from "./segment-types.js";

export interface SegmentOptions {
  /** A sentence longer than this is cut at the last space before the limit, so work stays bounded. */
  readonly maxSentenceLength?: number;
}

const defaultMaxSentenceLength = 1_000;

type BlockKind = Sentence["block"];

interface Block {
  readonly kind: BlockKind;
  /** Offsets of the block in the text. */
  readonly start: number;
  readonly end: number;
  /** Offsets inside the block to blank out (markers: "#", "-", ">", "|"), in order of their starts. */
  readonly masks: Span[];
}

const fencePattern = /^ {0,3}(`{3,}|~{3,})/;
const headingPattern = /^ {0,3}(#{1,6})[ \t]+/;
const listItemPattern = /^[ \t]*(?:[-*+•]|\d{1,9}[.)])[ \t]+/;
const quotePattern = /^[ \t]*>[ \t]?/;
const separatorCell = /^:?-{2,}:?$/;

/**
 * A Markdown table's separator row ("| --- | :--: |", "---|---"): cells of two or more dashes, each with optional
 * alignment colons, between optional outer pipes. Read cell by cell: one regex over the whole row lets its
 * space-and-tab runs trade characters and takes cubic time on a long row of them.
 */
export const isTableSeparator = (line: string): boolean => {
  // A row of any other character is none: most lines are turned away at their first character, unsplit.
  for (let at = 0; at < line.length; at++) if (!isSeparatorRowCharacter(line.charCodeAt(at))) return false;
  let row = trimSpacesAndTabs(line);
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|")) row = row.slice(0, -1);
  return row.split("|").every((cell) => separatorCell.test(trimSpacesAndTabs(cell)));
};
/** What a separator row is written with: "-", ":", "|", spaces and tabs. */
const isSeparatorRowCharacter = (code: number): boolean =>
  code === 45 || code === 58 || code === 124 || code === 32 || code === 9;
const horizontalRulePattern = /^[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;

interface Line {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const splitLines = (text: string): Line[] => {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const lineEnd = end > start && text[end - 1] === "\r" ? end - 1 : end;
    lines.push({ start, end: lineEnd, text: text.slice(start, lineEnd) });
    start = end + 1;
  }
  return lines;
};

/** Groups lines into markdown-ish blocks: fenced code is dropped, markers are masked. */
const toBlocks = (text: string): Block[] => {
  const blocks: Block[] = [];
  let fence: string | undefined;
  let current: { kind: BlockKind; start: number; end: number; masks: Span[] } | undefined;
  const flush = () => {
    if (current) blocks.push(current);
    current = undefined;
  };
  for (const line of splitLines(text)) {
    const fenceMatch = fencePattern.exec(line.text);
    if (fence !== undefined) {
      if (fenceMatch?.[1] && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length)
        fence = undefined;
      continue;
    }
    if (fenceMatch?.[1]) {
      flush();
      fence = fenceMatch[1];
      continue;
    }
    if (line.text.trim() === "" || horizontalRulePattern.test(line.text) || isTableSeparator(line.text)) {
      flush();
      continue;
    }
    const heading = headingPattern.exec(line.text);
    if (heading) {
      flush();
      blocks.push({
        kind: "heading",
        start: line.start,
        end: line.end,
        masks: [{ start: 0, end: heading[0].length }, ...trailingHashes(line.text)],
      });
      continue;
    }
    const listItem = listItemPattern.exec(line.text);
    if (listItem) {
      flush();
      current = {
        kind: "list-item",
        start: line.start,
        end: line.end,
        masks: [{ start: 0, end: listItem[0].length }],
      };
      continue;
    }
    const quote = quotePattern.exec(line.text);
    if (quote) {
      if (current?.kind !== "quote") {
        flush();
        current = { kind: "quote", start: line.start, end: line.end, masks: [] };
      }
      current.masks.push({
        start: line.start - current.start,
        end: line.start - current.start + quote[0].length,
      });
      current.end = line.end;
      continue;
    }
    if (isTableRow(line.text)) {
      flush();
      const masks: Span[] = [];
      for (let i = 0; i < line.text.length; i++)
        if (line.text[i] === "|") masks.push({ start: i, end: i + 1 });
      blocks.push({ kind: "table-row", start: line.start, end: line.end, masks });
      continue;
    }
    if (current && (current.kind === "paragraph" || current.kind === "list-item")) {
      current.end = line.end;
      continue;
    }
    flush();
    current = { kind: "paragraph", start: line.start, end: line.end, masks: [] };
  }
  flush();
  return blocks;
};

// Expressions read at every line break and every end mark, made once: a regular expression literal is a new
// object each time it is evaluated.
const closingHashes = /[ \t]#+[ \t]*$/;
const letterOrDot = /[\p{L}.]/u;
const leadingDots = /^\.+/;
const leadingLetters = /^[\p{L}]+/u;
const upperLetter = /^\p{Lu}$/u;
const lowerLetter = /\p{Ll}/u;
const firstVisible = /^[ \t]*(\S)/;
/** What ends a line that the next line goes on from: a comma, a colon, an opening bracket, a dash... */
const joiningMark = /[,;:(\-–—&]/;

const trailingHashes = (line: string): Span[] => {
  const match = closingHashes.exec(line);
  return match ? [{ start: match.index, end: line.length }] : [];
};

const isTableRow = (line: string): boolean => {
  const trimmed = line.trim();
  if (!trimmed.startsWith("|") && !trimmed.endsWith("|")) return false;
  const first = trimmed.indexOf("|");
  return first >= 0 && trimmed.indexOf("|", first + 1) >= 0;
};

/**
 * The block's text with its masks blanked, each masked character a space (the offsets stay those of the
 * text). Written as the unmasked stretches and runs of spaces between them: splitting every table row into an
 * array of one-character strings and joining it again was a tenth of what splitting sources into sentences
 * allocated. Masks come in order of their starts (`toBlocks` writes them left to right) and may overlap (a
 * heading's opening and closing "#" runs); a character in any mask is blank.
 */
const maskBlock = (text: string, block: Block): string => {
  if (block.masks.length === 0) return text.slice(block.start, block.end);
  const length = block.end - block.start;
  let masked = "";
  // Everything before `done` (relative to the block) is written.
  let done = 0;
  for (const mask of block.masks) {
    const start = Math.max(done, mask.start);
    const end = Math.min(length, mask.end);
    if (end <= start) continue;
    masked += text.slice(block.start + done, block.start + start) + " ".repeat(end - start);
    done = end;
  }
  return masked + text.slice(block.start + done, block.end);
};

/** One code unit a match: a character class without the `u` flag reads the text by UTF-16 code units. */
const interestingChars = /[.!?…\n“”«»]/g;
const closingChars = new Set(['"', "'", ")", "]", "}", "’", "”", "»", "*", "_"]);
const openingQuotes: Record<string, string> = { "“": "”", "«": "»" };

/** The last non-space character in `[from, to)`, or "" (scans back from `to`: constant work per call). */
const lastVisibleChar = (text: string, from: number, to: number): string => {
  for (let i = to - 1; i >= from; i--) if (!isWhiteSpace(text.charCodeAt(i))) return text.charAt(i);
  return "";
};

const maxAbbreviationLength = 12;

/** The word just before a period at `index`: letters and inner dots, lower-cased ("u.s" for "U.S."). */
const wordBefore = (masked: string, index: number): string => {
  let start = index;
  while (start > 0 && index - start <= maxAbbreviationLength) {
    const code = masked.charCodeAt(start - 1);
    // ASCII answers by its code; any other character is asked of the expression.
    const inWord =
      code < 128 ? isAsciiLetter(code) || code === 46 : letterOrDot.test(masked.charAt(start - 1));
    if (inWord) start--;
    else break;
  }
  return masked.slice(start, index).replace(leadingDots, "").toLowerCase();
};

const wordAfter = (masked: string, index: number): string => {
  const match = leadingLetters.exec(masked.slice(index, index + 40));
  return match ? match[0] : "";
};

const isBoundaryAfterPeriod = (masked: string, periodIndex: number, nextIndex: number): boolean => {
  const before = wordBefore(masked, periodIndex);
  const nextChar = masked[nextIndex] ?? "";
  if (hasDigit(nextChar) && (before === "no" || before === "nos" || before === "p" || before === "pp"))
    return false;
  if (abbreviations.has(before)) {
    // The next word is read only after an abbreviation: whether it starts a sentence decides.
    return (
      sentenceFinalAbbreviations.has(before) &&
      sentenceStarters.has(wordAfter(masked, nextIndex).toLowerCase())
    );
  }
  // An initial, as in "J. K. Rowling", or a dotted acronym not in the list ("N.A.S.A."): not a break.
  if (upperLetter.test(masked.slice(periodIndex - 1, periodIndex)) && before.length === 1) return false;
  return true;
};

/** Splits one block (already masked) into sentence spans relative to the block. */
const splitBlock = (masked: string): Span[] => {
  const spans: Span[] = [];
  let sentenceStart = 0;
  let quoteClose: string | undefined;
  let i = 0;
  while (i < masked.length) {
    // Jump to the next character that can matter: end punctuation, a line break, a curly quote.
    // `test` moves `lastIndex` past the match without making a match object (a match is one code unit).
    interestingChars.lastIndex = i;
    if (!interestingChars.test(masked)) break;
    i = interestingChars.lastIndex - 1;
    const char = masked[i] ?? "";
    if (quoteClose === undefined && openingQuotes[char]) quoteClose = openingQuotes[char];
    else if (char === quoteClose) quoteClose = undefined;

    if (char === "\n") {
      const lastChar = lastVisibleChar(masked, sentenceStart, i);
      const nextMatch = firstVisible.exec(masked.slice(i + 1, i + 40));
      const nextChar = nextMatch?.[1] ?? "";
      const continues = nextChar === "" || lowerLetter.test(nextChar) || joiningMark.test(lastChar);
      if (!continues && quoteClose === undefined && lastChar !== "") {
        spans.push({ start: sentenceStart, end: i });
        sentenceStart = i + 1;
      }
      i++;
      continue;
    }
    if (char !== "." && char !== "!" && char !== "?" && char !== "…") {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < masked.length && isEndPunctuation(masked.charCodeAt(end))) end++;
    while (end < masked.length && closingChars.has(masked[end] ?? "")) {
      if (masked[end] === quoteClose) quoteClose = undefined;
      end++;
    }
    if (end < masked.length && !isWhiteSpace(masked.charCodeAt(end))) {
      i = end;
      continue;
    }
    let nextIndex = end;
    while (nextIndex < masked.length && isSpaceOrBreak(masked.charCodeAt(nextIndex))) nextIndex++;
    const nextChar = masked[nextIndex] ?? "";
    const lowercaseNext = lowerLetter.test(nextChar);
    // End punctuation standing apart from the word before it ("the study found . it can ...", as tokenized,
    // lower-cased text writes it) cannot close an abbreviation or an initial: it ends the sentence whatever
    // the case of the next word.
    const detached = i > sentenceStart && isSpaceOrTab(masked.charCodeAt(i - 1));
    const isBoundary =
      quoteClose === undefined &&
      (nextChar === "" ||
        (detached && letterOrDigit.test(nextChar)) ||
        (!lowercaseNext && (char !== "." || end - i > 1 || isBoundaryAfterPeriod(masked, i, nextIndex))));
    if (isBoundary) {
      spans.push({ start: sentenceStart, end });
      sentenceStart = end;
    }
    i = end;
  }
  spans.push({ start: sentenceStart, end: masked.length });
  return spans;
};

const trimSpan = (masked: string, span: Span): Span | undefined => {
  let { start, end } = span;
  while (start < end && isWhiteSpace(masked.charCodeAt(start))) start++;
  while (end > start && isWhiteSpace(masked.charCodeAt(end - 1))) end--;
  return end > start ? { start, end } : undefined;
};

/** Cuts an over-long span at spaces so no sentence exceeds `limit` characters. */
const capLength = (masked: string, span: Span, limit: number): Span[] => {
  const pieces: Span[] = [];
  let start = span.start;
  while (span.end - start > limit) {
    const window = masked.slice(start, start + limit);
    const lastSpace = window.lastIndexOf(" ");
    const cut = lastSpace > limit / 2 ? start + lastSpace : start + limit;
    pieces.push({ start, end: cut });
    start = cut;
  }
  pieces.push({ start, end: span.end });
  return pieces;
};

const letterOrDigit = /[\p{L}\p{N}]/u;

/**
 * Whether `text` holds a letter or a digit from `start` to `end`. An ASCII one answers at once; a stretch of
 * ASCII without one answers no; anything else is asked of the expression, which reads letters outside the
 * Basic Multilingual Plane whole.
 */
export const holdsLetterOrDigit = (text: string, start: number, end: number): boolean => {
  let ascii = true;
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at);
    if (isAsciiLetterOrDigit(code)) return true;
    if (code >= 128) ascii = false;
  }
  return !ascii && letterOrDigit.test(text.slice(start, end));
};

/**
 * Splits a text into sentences with exact offsets: `text.slice(s.span.start, s.span.end) === s.text`.
 * Markdown headings, list items, quotes and table rows are blocks of their own; fenced code is left out.
 * Runs in time linear in the text.
 */
export const splitSentences = (text: string, options: SegmentOptions = {}): Sentence[] => {
  const limit = options.maxSentenceLength ?? defaultMaxSentenceLength;
  const sentences: Sentence[] = [];
  for (const block of toBlocks(text)) {
    const masked = maskBlock(text, block);
    for (const raw of splitBlock(masked)) {
      const trimmed = trimSpan(masked, raw);
      if (!trimmed || !holdsLetterOrDigit(masked, trimmed.start, trimmed.end)) continue;
      // A sentence within the limit is one piece, already trimmed.
      if (trimmed.end - trimmed.start <= limit) {
        const span = { start: block.start + trimmed.start, end: block.start + trimmed.end };
        sentences.push({ text: text.slice(span.start, span.end), span, block: block.kind });
        continue;
      }
      for (const piece of capLength(masked, trimmed, limit)) {
        const clean = trimSpan(masked, piece);
        if (!clean) continue;
        const span = { start: block.start + clean.start, end: block.start + clean.end };
        sentences.push({ text: text.slice(span.start, span.end), span, block: block.kind });
      }
    }
  }
  return sentences;
};
