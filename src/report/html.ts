import type { ClaimFinding, ClaimVerdict } from "../model/claim.js";
import type { VerificationResult } from "../model/result.js";
import { escapeHtml } from "./escape-html.js";
import { narrowScreenStyle } from "./narrow-screen-style.js";
import { answerVerdictLabel } from "./verdict-style.js";

export { escapeHtml };

const verdictBackground: Record<ClaimVerdict, string> = {
  supported: "#d9f2e0",
  unsupported: "#fbd5d5",
  contradicted: "#f1d3f5",
  unverifiable: "#fdf0c4",
};

/** The answer with each claim wrapped in a <mark> coloured by verdict; the reasons in its title. */
export const highlightClaims = (text: string, claims: readonly ClaimFinding[]): string => {
  let html = "";
  let cursor = 0;
  for (const [index, claim] of claims.entries()) {
    if (claim.span.start < cursor) continue;
    html += escapeHtml(text.slice(cursor, claim.span.start));
    const title = claim.issues.map((issue) => issue.message).join("; ") || claim.verdict;
    html += `<mark class="claim ${claim.verdict}" data-verdict="${claim.verdict}" id="claim-${index}" title="${escapeHtml(title)}">${escapeHtml(text.slice(claim.span.start, claim.span.end))}</mark>`;
    cursor = claim.span.end;
  }
  return html + escapeHtml(text.slice(cursor));
};

export const claimsStyle = Object.entries(verdictBackground)
  .map(
    ([verdict, colour]) => `mark.${verdict}{background:${colour};color:#111;border-radius:3px;padding:0 2px}`,
  )
  .join("\n");

/** A self-contained HTML report (no scripts, no external assets) of one verification. */
export const renderHtmlReport = (
  text: string,
  result: VerificationResult,
  evidenceNames: readonly string[],
): string => {
  const rows = result.claims
    .map((claim, index) => {
      const evidence = claim.evidence[0];
      const where = evidence ? escapeHtml(evidenceNames[evidence.source] ?? `source ${evidence.source}`) : "";
      return `<tr><td><a href="#claim-${index}">${index + 1}</a></td><td><span class="badge ${claim.verdict}">${claim.verdict}</span></td><td>${claim.score.toFixed(2)}</td><td>${escapeHtml(claim.text)}</td><td>${claim.issues.map((issue) => `<div><code>${escapeHtml(issue.code)}</code> ${escapeHtml(issue.message)}</div>`).join("")}</td><td>${evidence ? `<blockquote>${escapeHtml(evidence.text)}</blockquote><small>${where}, ${evidence.span.start}-${evidence.span.end}</small>` : ""}</td></tr>`;
    })
    .join("\n");
  const status = answerVerdictLabel[result.verdict];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Veracity report: ${status}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#111;line-height:1.5}
.answer{white-space:pre-wrap;border:1px solid #ccc;padding:1rem;border-radius:6px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;vertical-align:top;text-align:left}
blockquote{margin:0;padding-left:.5rem;border-left:3px solid #999}
.badge{padding:0 .4rem;border-radius:3px}.badge.supported{background:#d9f2e0}.badge.unsupported{background:#fbd5d5}
.badge.contradicted{background:#f1d3f5}.badge.unverifiable{background:#fdf0c4}
.status{font-weight:bold}.status.passed{color:#1a6b34}.status.failed{color:#a11}.status.warning,.status.unverified{color:#8a5a00}
${claimsStyle}
${narrowScreenStyle}
</style></head><body>
<h1>Veracity report</h1>
<p class="status ${status.toLowerCase()}">${status}: confidence ${result.overallConfidence.toFixed(2)}, ${Math.round(result.coverage * 100)}% of claims checked, risk ${escapeHtml(result.riskLevel)}</p>
<ul>${result.reasons.map((reason) => `<li>${escapeHtml(reason)}</li>`).join("")}${result.skippedLayers.map((skipped) => `<li>skipped ${escapeHtml(skipped.layer)}: ${escapeHtml(skipped.reason)}</li>`).join("")}</ul>
<h2>Answer</h2>
<div class="answer">${highlightClaims(text, result.claims)}</div>
<h2>Claims</h2>
<table><thead><tr><th>#</th><th>Verdict</th><th>Score</th><th>Claim</th><th>Reasons</th><th>Evidence</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
};
