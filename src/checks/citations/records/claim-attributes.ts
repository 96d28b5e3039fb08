import { Decimal } from "decimal.js";
import type { Span } from "../../../model/span.js";
import type { ExtractedCitation } from "../citation.js";
import { toWei } from "./units.js";

export interface ClaimedValue<A> {
  readonly value: A;
  /** Offsets into the verified text. */
  readonly span: Span;
  readonly text: string;
}

/** What a claim states about a transaction, read from its wording and its citations. */
export interface ClaimAttributes {
  readonly sender?: ClaimedValue<string>;
  readonly recipient?: ClaimedValue<string>;
  readonly token?: ClaimedValue<string>;
  /** Ether amount in wei. */
  readonly etherAmount?: ClaimedValue<Decimal>;
  /**
   * Token amount: in raw units for "N tokens", in whole tokens for "N SYMBOL" (`symbol` set, upper-case).
   */
  readonly tokenAmount?: ClaimedValue<Decimal> & { readonly symbol?: string };
  /** Blocks the claim limits itself to: "between blocks 100 and 110", "in block 105". */
  readonly blockRange?: ClaimedValue<{ readonly from: string; readonly to: string }>;
  readonly block?: ClaimedValue<string>;
  /** Seconds since the epoch, and whether only a date was given. */
  readonly timestamp?: ClaimedValue<{ readonly seconds: number; readonly dateOnly: boolean }>;
}

const etherAmountPattern = /(\d[\d,]{0,40}(?:\.\d{1,40})?)\s?(wei|gwei|eth|ether)\b/gi;
const tokenAmountPattern = /(\d[\d,]{0,80}(?:\.\d{1,40})?)\s?(?:tokens?|token units?)\b/gi;
/** An amount and a ticker in capitals ("7.056 WETH", "2,000 USDC"); case matters, so words are left alone. */
const symbolAmountPattern = /(\d[\d,]{0,80}(?:\.\d{1,40})?)\s?([A-Z][A-Z0-9]{1,9})\b/g;
/** Tickers that are not tokens: ether (compared as ether) and currencies. */
const notTokenSymbols = new Set([
  "ETH",
  "ETHER",
  "GWEI",
  "WEI",
  "USD",
  "EUR",
  "GBP",
  "JPY",
  "CNY",
  "CHF",
  "CAD",
  "AUD",
]);
const blockRangePattern =
  /\bblocks?\s(?:\[BLOCK:\s?)?#?(\d{1,12})\]?(?:\s?(?:to|and|through|until|-|\u2013)\s?(?:block\s)?(?:\[BLOCK:\s?)?#?(\d{1,12})\]?)?/i;

const before = (text: string, offset: number, width: number) =>
  text.slice(Math.max(0, offset - width), offset);
const after = (text: string, offset: number, width: number) => text.slice(offset, offset + width);

type AddressRole = "sender" | "recipient" | "token" | undefined;

/** The role of a cited address from the words around it: "from A", "to B", "A sent", "B received". */
export const addressRole = (text: string, span: Span): AddressRole => {
  const preceding = before(text, span.start, 24).toLowerCase();
  const following = after(text, span.end, 30).toLowerCase();
  if (/\b(?:from|by|(?:sender|originator)(?:\s(?:was|is))?:?)\s*$/.test(preceding)) return "sender";
  if (/\b(?:to|(?:recipient|receiver|beneficiary)(?:\s(?:was|is))?:?)\s*$/.test(preceding))
    return "recipient";
  if (/\b(?:of|token|contract)\s*$/.test(preceding)) return "token";
  if (/^\s*(?:sent|transferred|paid|moved|sends|transfers)\b/.test(following)) return "sender";
  if (/^\s*(?:received|receives|got)\b/.test(following)) return "recipient";
  return undefined;
};

const firstMatch = (pattern: RegExp, text: string, offset: number) => {
  pattern.lastIndex = 0;
  const match = pattern.exec(text);
  if (match === null) return undefined;
  return { match, span: { start: offset + match.index, end: offset + match.index + match[0].length } };
};

const parseTimestamp = (value: string): { seconds: number; dateOnly: boolean } | undefined => {
  const dateOnly = value.length === 10;
  const milliseconds = Date.parse(
    dateOnly ? `${value}T00:00:00Z` : /[zZ]|[+-]\d{2}:?\d{2}$/.test(value) ? value : `${value}Z`,
  );
  return Number.isNaN(milliseconds) ? undefined : { seconds: Math.floor(milliseconds / 1000), dateOnly };
};

const firstSymbolAmount = (claimText: string, offset: number) => {
  symbolAmountPattern.lastIndex = 0;
  for (
    let match = symbolAmountPattern.exec(claimText);
    match !== null;
    match = symbolAmountPattern.exec(claimText)
  ) {
    const symbol = match[2] ?? "";
    if (notTokenSymbols.has(symbol)) continue;
    const span = { start: offset + match.index, end: offset + match.index + match[0].length };
    return { value: new Decimal((match[1] ?? "").replaceAll(",", "")), symbol, span, text: match[0] };
  }
  return undefined;
};

/**
 * Reads the attributes a claim states. `claimSpan` locates the claim in `text`; citations carry offsets into
 * `text`. The first address in each role, the first ether amount and the first token amount count.
 */
export const readClaimAttributes = (
  text: string,
  claimSpan: Span,
  citations: readonly ExtractedCitation[],
): ClaimAttributes => {
  const attributes: {
    -readonly [K in keyof ClaimAttributes]: ClaimAttributes[K];
  } = {};
  for (const citation of citations) {
    const claimed = { span: citation.span, text: citation.raw };
    if (citation.kind === "address") {
      const role = addressRole(text, citation.span);
      if (role !== undefined && attributes[role] === undefined)
        attributes[role] = { ...claimed, value: citation.value };
    } else if (citation.kind === "block" && attributes.block === undefined) {
      attributes.block = { ...claimed, value: citation.value };
    } else if (
      citation.kind === "timestamp" &&
      attributes.timestamp === undefined &&
      !citation.formatProblem
    ) {
      const timestamp = parseTimestamp(citation.value);
      if (timestamp) attributes.timestamp = { ...claimed, value: timestamp };
    }
  }
  // Amounts are read from the claim with its citations blanked out, so digits inside hashes never count.
  let claimText = text.slice(claimSpan.start, claimSpan.end);
  for (const citation of citations) {
    const start = citation.span.start - claimSpan.start;
    const end = citation.span.end - claimSpan.start;
    if (start >= 0 && end <= claimText.length)
      claimText = claimText.slice(0, start) + " ".repeat(end - start) + claimText.slice(end);
  }
  const ether = firstMatch(etherAmountPattern, claimText, claimSpan.start);
  if (ether) {
    const wei = toWei(ether.match[1] ?? "", ether.match[2] ?? "");
    if (wei) attributes.etherAmount = { value: wei, span: ether.span, text: ether.match[0] };
  }
  const tokens = firstMatch(tokenAmountPattern, claimText, claimSpan.start);
  if (tokens) {
    const amount = (tokens.match[1] ?? "").replaceAll(",", "");
    attributes.tokenAmount = { value: new Decimal(amount), span: tokens.span, text: tokens.match[0] };
  } else {
    const symbolAmount = firstSymbolAmount(claimText, claimSpan.start);
    if (symbolAmount) attributes.tokenAmount = symbolAmount;
  }
  // Block ranges are read from the claim as written: "[BLOCK:100]" counts as well as "block 100".
  const range = blockRangePattern.exec(text.slice(claimSpan.start, claimSpan.end));
  if (range?.[1] !== undefined) {
    const from = range[1].replace(/^0+(?=\d)/, "");
    const to = (range[2] ?? range[1]).replace(/^0+(?=\d)/, "");
    const start = claimSpan.start + range.index;
    attributes.blockRange = {
      value: { from, to },
      span: { start, end: start + range[0].length },
      text: range[0],
    };
  }
  return attributes;
};
