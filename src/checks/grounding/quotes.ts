import type { ClaimContext, GroundingFinding } from "./claim-context.js";
import { foldText } from "./source-index.js";

// A quotation of 2 to 300 characters between straight or curly double quotes; no nesting, so linear.
const quotationPattern = /["“]([^"“”\n]{2,300})["”]/g;

/** Quoted strings in a claim that appear verbatim nowhere in the sources. */
export const checkQuotes = (context: ClaimContext): GroundingFinding[] => {
  const findings: GroundingFinding[] = [];
  for (const match of context.claim.text.matchAll(quotationPattern)) {
    const quoted = match[1] ?? "";
    if (quoted.trim().split(/\s+/).length < 2) continue;
    if (context.index.foldedText().includes(foldText(quoted.trim()))) continue;
    const start = context.claim.span.start + (match.index ?? 0);
    findings.push({
      code: "QUOTE_NOT_IN_SOURCES",
      message: `the quotation "${quoted.slice(0, 80)}" does not appear in the sources`,
      span: { start, end: start + match[0].length },
      penalty: 0.3,
      contradicts: false,
    });
  }
  return findings;
};
