import type { ClaimFinding, ClaimIssue } from "../../../model/claim.js";
import type { Claim } from "../../../model/layer.js";
import type { Span } from "../../../model/span.js";
import { totalCue } from "../validate/partial-aggregation.js";
import type { NumberCheck, ValidationResult } from "../validate/validation-result.js";

/**
 * A question that asks for one aggregate figure ("What is the total options volume for AVGO today?") is
 * answered by looking that figure up, not by adding parts of it together. An answer whose figure for that
 * total is a sum of partial source figures (two expiration dates out of many) presents a home-made number as
 * the asked-for total. This check finds such figures; the answer passes again when it states the figure as
 * the total found in the sources, or says plainly that it covers only part of the data.
 */
export interface DecomposedTotal {
  readonly text: string;
  readonly span: Span;
  /** How the parts add up to the figure: `20893 + 76378 = 97271`. */
  readonly formula: string;
}

/** Words with which a question explicitly asks for parts, a breakdown or an addition of named items. */
const breakdownCue =
  /\b(?:break(?:s|ing)? (?:it )?down|breakdown|by (?:each|category|segment|region|date|type)|for each|per|each|compare|comparison|versus|vs\.?|respectively|sum of|add(?:ing)? up|add(?:ing)? together|across|between)\b/i;

/** Words with which an answer says its figure covers only part of what was asked. */
const partialDisclosure =
  /\b(?:based on (?:\w+ )?(?:of|out of)|\d+ (?:out )?of (?:the )?\d+|partial|only (?:for |covers? |includes? )?(?:the )?(?:two|three|four|some|\d+)|a subset|incomplete|at least|not (?:the )?(?:full|complete|whole))\b/i;

/** True when the question asks for a single aggregate metric, not for a breakdown or comparison. */
export const asksForSingleAggregate = (question: string): boolean =>
  totalCue.test(question) && !breakdownCue.test(question);

// Made once: a regular expression literal is a new object each time it is evaluated.
const otherOperator = /[-*/×÷%^]/;
const leadingMinus = /^\s*-/;
const sentenceEnd = /[.!?](?:\s|$)|\n/;

const onlyAdditions = (formula: string) => {
  const left = formula.split("=")[0] ?? "";
  return left.includes("+") && !otherOperator.test(left.replace(leadingMinus, ""));
};

/** A number the validator traced only as a sum of other figures. */
const isSumOfParts = (check: NumberCheck) =>
  check.status === "derived" &&
  (check.derivation === "sum" ||
    (check.derivation === "written-calculation" &&
      check.formula !== undefined &&
      onlyAdditions(check.formula)));

const sentenceAround = (text: string, span: Span): string => {
  const before = text.slice(0, span.start);
  const start = Math.max(before.lastIndexOf(". "), before.lastIndexOf("\n")) + 1;
  const after = text.slice(span.end).search(sentenceEnd);
  return text.slice(start, after < 0 ? text.length : span.end + after + 1);
};

/**
 * Figures of the answer that a question for a single aggregate received as a sum of parts. Empty when there
 * is no question, when the question asks for a breakdown, or when the answer discloses partial coverage.
 */
export const findDecomposedTotals = (
  question: string | undefined,
  text: string,
  validation: ValidationResult,
): DecomposedTotal[] => {
  if (!question || !asksForSingleAggregate(question)) return [];
  return validation.numbers.flatMap((check) => {
    if (!isSumOfParts(check)) return [];
    const sentence = sentenceAround(text, check.span);
    if (partialDisclosure.test(sentence)) return [];
    return [{ text: check.text, span: check.span, formula: check.formula ?? check.text }];
  });
};

const within = (span: Span, claim: { readonly span: Span }) =>
  claim.span.start <= span.start && span.end <= claim.span.end;

const issueOf = (total: DecomposedTotal): ClaimIssue => ({
  code: "DECOMPOSED_AGGREGATE",
  message: `${total.text} answers a question for a single total but is a sum of parts (${total.formula}); a total is looked up in the sources, not assembled from partial figures`,
  span: total.span,
  layer: "numbers",
});

/**
 * Adds the decomposed-total issues to the numbers layer's claim findings: a claim holding such a figure is
 * at best unsupported (the sources do not state that total), and keeps a worse verdict it already had.
 */
export const withDecomposedTotals = (
  findings: readonly ClaimFinding[],
  claims: readonly Claim[],
  totals: readonly DecomposedTotal[],
  validation: ValidationResult,
): ClaimFinding[] => {
  // The claim's share of numbers that still trace once its decomposed totals count as untraced.
  const scoreWithout = (finding: ClaimFinding, flagged: readonly DecomposedTotal[]) => {
    const checked = validation.numbers.filter((check) => within(check.span, finding)).length;
    const untraced = Math.round((1 - finding.score) * checked) + flagged.length;
    return checked === 0 ? 0 : Math.max(0, (checked - untraced) / checked);
  };
  if (totals.length === 0) return [...findings];
  const updated = findings.map((finding) => {
    const mine = totals.filter((total) => within(total.span, finding));
    if (mine.length === 0) return finding;
    return {
      ...finding,
      verdict: finding.verdict === "contradicted" ? finding.verdict : ("unsupported" as const),
      score: scoreWithout(finding, mine),
      issues: [...finding.issues, ...mine.map(issueOf)],
    };
  });
  const uncovered = totals.filter((total) => !findings.some((finding) => within(total.span, finding)));
  for (const claim of claims) {
    const mine = uncovered.filter((total) => within(total.span, claim));
    if (mine.length === 0) continue;
    updated.push({
      text: claim.text,
      span: claim.span,
      kind: claim.kind,
      verdict: "unsupported",
      score: 0,
      evidence: [],
      issues: mine.map(issueOf),
      layers: ["numbers"],
    });
  }
  return updated;
};
