import type { VerificationResult } from "../model/result.js";
import {
  answerVerdictColour,
  answerVerdictLabel,
  resetColour,
  verdictColour,
  verdictSymbol,
} from "./verdict-style.js";

export interface TextReportOptions {
  readonly colour: boolean;
  /** Display names of the evidence list (sources, then context), for citing where evidence came from. */
  readonly evidenceNames: readonly string[];
}

const oneLine = (text: string, max = 160): string => {
  const folded = text.replace(/\s+/g, " ").trim();
  return folded.length > max ? `${folded.slice(0, max - 1)}…` : folded;
};

/** The human report: one block per claim with its verdict, reasons and best evidence; then the decision. */
export const renderTextReport = (result: VerificationResult, options: TextReportOptions): string => {
  const paint = (colour: string, text: string) => (options.colour ? `${colour}${text}${resetColour}` : text);
  const lines: string[] = [];
  for (const claim of result.claims) {
    const head = `${verdictSymbol[claim.verdict]} ${claim.verdict.toUpperCase()} (${claim.score.toFixed(2)})`;
    lines.push(
      `${paint(verdictColour[claim.verdict], head)} [${claim.span.start}-${claim.span.end}] ${oneLine(claim.text)}`,
    );
    for (const issue of claim.issues) lines.push(`    reason: ${issue.message}`);
    const best = claim.evidence[0];
    if (best && claim.verdict !== "unverifiable") {
      const name = options.evidenceNames[best.source] ?? `source ${best.source}`;
      lines.push(`    evidence (${name} ${best.span.start}-${best.span.end}): "${oneLine(best.text, 200)}"`);
    }
  }
  if (result.claims.length === 0) lines.push("(no claims found in the text)");
  lines.push("");
  const verdict = paint(answerVerdictColour[result.verdict], answerVerdictLabel[result.verdict]);
  const counts = new Map<string, number>();
  for (const claim of result.claims) counts.set(claim.verdict, (counts.get(claim.verdict) ?? 0) + 1);
  const summary = [...counts].map(([verdictName, count]) => `${count} ${verdictName}`).join(", ");
  lines.push(
    `${verdict}: confidence ${result.overallConfidence.toFixed(2)}${result.hallucinationScore === undefined ? "" : `, hallucination score ${result.hallucinationScore.toFixed(2)}`}, ${Math.round(result.coverage * 100)}% of claims checked, risk ${result.riskLevel}, ${result.claims.length} claims (${summary || "none"})`,
  );
  lines.push(
    `layers run: ${result.layersRun.map((layer) => `${layer.layer} ${layer.passed ? "passed" : "failed"} (${layer.score.toFixed(2)})`).join(", ") || "none"}`,
  );
  for (const skipped of result.skippedLayers) lines.push(`skipped: ${skipped.layer}: ${skipped.reason}`);
  for (const reason of result.reasons) lines.push(`why: ${reason}`);
  for (const mitigation of result.mitigations) {
    lines.push(`mitigation: ${mitigation.action}: ${mitigation.reason}`);
    const check = mitigation.verification;
    if (check !== undefined)
      lines.push(
        `rewritten text verified: ${check.passed ? "PASSED" : "FAILED"} (confidence ${check.overallConfidence.toFixed(2)})${check.reasons.length > 0 ? `: ${check.reasons.join("; ")}` : ""}`,
      );
  }
  return `${lines.join("\n")}\n`;
};
