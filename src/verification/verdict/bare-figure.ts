import type { ClaimFinding } from "../../model/claim.js";
import { contentTokens, tokenize } from "../../text/tokens.js";

/**
 * Issue codes about a figure absent from the sources. Only the numbers layer's `ORPHAN_NUMBER` says that no
 * source figure, tool result or derivation explains it; grounding's `NUMBER_NOT_IN_SOURCES` alone also fires on
 * a correct derived figure ("-12.6" as 44.1 - 56.7), so one of the issues must be an orphan.
 */
const untracedFigureCodes: ReadonlySet<string> = new Set(["ORPHAN_NUMBER", "NUMBER_NOT_IN_SOURCES"]);

/**
 * Words that only qualify a figure, not assert anything beside it: its scale, unit or currency, or what kind of
 * figure it is ("the total was", "the average is", "the answer is"). A direction ("grew", "fell") or a subject
 * ("revenue") is an assertion of its own and keeps the claim from being bare.
 */
const figureWords: ReadonlySet<string> = new Set([
  "total",
  "sum",
  "average",
  "mean",
  "median",
  "change",
  "difference",
  "ratio",
  "share",
  "proportion",
  "rate",
  "amount",
  "value",
  "figure",
  "result",
  "answer",
  "thousand",
  "thousands",
  "million",
  "millions",
  "billion",
  "billions",
  "trillion",
  "trillions",
  "bn",
  "mn",
  "mln",
  "m",
  "k",
  "percent",
  "per",
  "cent",
  "percentage",
  "points",
  "dollars",
  "dollar",
  "usd",
  "eur",
  "euros",
  "euro",
  "gbp",
  "pounds",
  "yen",
]);

/**
 * A claim that is nothing but figures none of which traces to the evidence ("-12.6 million" answering a
 * question about a table that gives no such value, derived or not): everything it asserts is unsupported, so
 * it fails the answer as a claim with no support does. A claim with other content ("revenue grew to 12.6
 * million in 2023") is judged on that content too, and an untraced figure in it only warns.
 */
export const isBareUntracedFigure = (claim: ClaimFinding): boolean => {
  if (claim.verdict !== "unsupported" || claim.issues.length === 0) return false;
  if (!claim.issues.every((issue) => untracedFigureCodes.has(issue.code))) return false;
  if (!claim.issues.some((issue) => issue.code === "ORPHAN_NUMBER")) return false;
  const offset = claim.span.start;
  let rest = claim.text;
  // Blank out the figures the issues point at (spans are offsets into the verified text).
  for (const issue of claim.issues) {
    const start = issue.span.start - offset;
    const end = issue.span.end - offset;
    if (start < 0 || end > rest.length) return false;
    rest = rest.slice(0, start) + " ".repeat(end - start) + rest.slice(end);
  }
  const words = contentTokens(tokenize(rest)).filter(
    (token) => /\p{L}/u.test(token.lower) && !figureWords.has(token.lower),
  );
  return words.length === 0;
};
