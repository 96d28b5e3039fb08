import type { ClaimFinding, ClaimIssue, ClaimVerdict } from "../../../model/claim.js";
import type { Claim } from "../../../model/layer.js";
import type { Span } from "../../../model/span.js";
import { inTextOrder, lastStartingBy } from "../../../text/span-index.js";
import type { NumberCheck, ValidationResult } from "../validate/validation-result.js";

const within = (span: Span, claim: Claim) => claim.span.start <= span.start && span.end <= claim.span.end;

const issueOf = (check: NumberCheck): ClaimIssue | undefined => {
  if (check.status === "orphan") {
    return {
      code: "ORPHAN_NUMBER",
      message: `${check.text} traces to no source figure, calculator result or derivation from them`,
      span: check.span,
      layer: "numbers",
    };
  }
  if (check.status !== "suspicious") return undefined;
  const inline = check.reason === "inline-calculation";
  const how = check.formula ? ` (${check.formula})` : "";
  return {
    code: inline ? "WRONG_INLINE_CALCULATION" : "SUSPICIOUS_NUMBER",
    message: inline
      ? `the written calculation gives ${check.expected ?? "another value"}, not ${check.text}${how}`
      : check.reason === "direction"
        ? `${check.text} goes the wrong way: the sources show a change of ${check.expected ?? "the other sign"}${how}`
        : `${check.text} is close to a traceable value but wrong: it should be ${check.expected ?? "different"}${how}`,
    span: check.span,
    layer: "numbers",
    ...(check.expected ? { expected: check.expected } : {}),
  };
};

/**
 * The items (numbers, skipped spans, partial sums) each claim holds, by claim position. Claims in text order
 * that do not overlap, as the text's segmentation gives them, are searched by halves: linear in the answer,
 * where filtering every item for every claim grew with its square (10,000 claims of a long answer). Claims in
 * any other arrangement are filtered one by one.
 */
const byClaim = <T>(claims: readonly Claim[], items: readonly T[], spanOf: (item: T) => Span): T[][] => {
  const held: T[][] = claims.map(() => []);
  const spans = claims.map((claim) => claim.span);
  const ordered = inTextOrder(spans);
  for (const item of items) {
    const span = spanOf(item);
    if (!ordered) {
      for (const [at, claim] of claims.entries()) if (within(span, claim)) held[at]?.push(item);
      continue;
    }
    // The last claim that starts at or before the item: the only one that can hold it.
    const at = lastStartingBy(spans, span.start);
    const claim = claims[at];
    if (claim && within(span, claim)) held[at]?.push(item);
  }
  return held;
};

/** Issue code of a number the layer could not judge because a limit was reached: its claim is unverifiable. */
export const limitReachedCode = "NUMBERS_LIMIT_REACHED";

/**
 * A number not traced while the evidence was read only in part: the unread part may hold it, so it is not
 * called wrong. A written calculation that does not compute is wrong whatever the evidence holds.
 */
const untracedInPart = (check: NumberCheck, result: ValidationResult): ClaimIssue | undefined =>
  result.sourceTruncated === true &&
  (check.status === "orphan" || (check.status === "suspicious" && check.reason !== "inline-calculation"))
    ? {
        code: limitReachedCode,
        message: `${check.text} was not found in the part of the evidence read: the evidence holds more figures than the limit (maxSourceNumbers), so it cannot be verified`,
        span: check.span,
        layer: "numbers",
      }
    : undefined;

const skippedIssue = (span: Span, byWork: boolean): ClaimIssue => ({
  code: limitReachedCode,
  message: byWork
    ? "this number was not checked: tracing the answer's numbers through this much evidence reached the work limit (maxTraceWork)"
    : "this number was not checked: the answer holds more numbers than the limit (maxAnswerNumbers)",
  span,
  layer: "numbers",
});

/**
 * One finding per claim that contains a checked number: its issues, its verdict and its share of traced
 * numbers. A claim whose numbers could not all be judged because a limit was reached, and that nothing shows
 * wrong, is `unverifiable`.
 */
export const claimFindings = (claims: readonly Claim[], result: ValidationResult): ClaimFinding[] => {
  const checksOf = byClaim(claims, result.numbers, (check) => check.span);
  // The first `skippedByWork` spans were left when tracing reached its work bound, the rest past the answer's.
  const skippedItems = (result.skippedSpans ?? []).map((span, at) => ({
    span,
    byWork: at < (result.skippedByWork ?? 0),
  }));
  const skippedOf = byClaim(claims, skippedItems, (item) => item.span);
  const partialsOf = byClaim(claims, result.partialAggregations, (partial) => partial.span);
  return claims.flatMap((claim, position) => {
    const checks = checksOf[position] ?? [];
    const skipped = skippedOf[position] ?? [];
    if (checks.length === 0 && skipped.length === 0) return [];
    const limited: ClaimIssue[] = [
      ...checks.flatMap((check) => untracedInPart(check, result) ?? []),
      ...skipped.map((item) => skippedIssue(item.span, item.byWork)),
    ];
    const limitedAt = new Set(limited.map((issue) => issue.span.start));
    const issues: ClaimIssue[] = checks.flatMap((check) =>
      limitedAt.has(check.span.start) ? [] : (issueOf(check) ?? []),
    );
    for (const partial of partialsOf[position] ?? []) {
      issues.push({
        code: "PARTIAL_AGGREGATION",
        message: `${partial.claimedTotal} is presented as a total but is the sum of ${partial.items.join(" + ")}; the source's total is ${partial.sourceTotal}`,
        span: partial.span,
        layer: "numbers",
        expected: partial.sourceTotal,
      });
    }
    const contradicted = issues.some((issue) => issue.code !== "ORPHAN_NUMBER");
    const verdict: ClaimVerdict = contradicted
      ? "contradicted"
      : issues.length > 0
        ? "unsupported"
        : limited.length > 0
          ? "unverifiable"
          : "supported";
    const flagged = new Set([...issues, ...limited].map((issue) => issue.span.start));
    const traced = checks.filter((check) => !flagged.has(check.span.start)).length;
    return [
      {
        text: claim.text,
        span: claim.span,
        kind: claim.kind,
        verdict,
        score: traced / (checks.length + skipped.length),
        evidence: [],
        issues: [...issues, ...limited],
        layers: ["numbers"],
      },
    ];
  });
};
