import type { ClaimFinding, ClaimIssue, ClaimVerdict } from "../../model/claim.js";
import type { Span } from "../../model/span.js";
import type { Claim } from "../../verification/layer.js";
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

/** One finding per claim that contains a checked number: its issues, its verdict and its share of traced numbers. */
export const claimFindings = (claims: readonly Claim[], result: ValidationResult): ClaimFinding[] =>
  claims.flatMap((claim) => {
    const checks = result.numbers.filter((check) => within(check.span, claim));
    if (checks.length === 0) return [];
    const issues: ClaimIssue[] = checks.flatMap((check) => issueOf(check) ?? []);
    for (const partial of result.partialAggregations) {
      if (!within(partial.span, claim)) continue;
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
        : "supported";
    const flagged = new Set(issues.map((issue) => issue.span.start));
    const traced = checks.filter((check) => !flagged.has(check.span.start)).length;
    return [
      {
        text: claim.text,
        span: claim.span,
        kind: claim.kind,
        verdict,
        score: traced / checks.length,
        evidence: [],
        issues,
        layers: ["numbers"],
      },
    ];
  });
