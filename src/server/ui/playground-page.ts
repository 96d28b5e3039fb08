import type { VerificationResult } from "../../model/result.js";
import { escapeHtml, highlightClaims } from "../../report/html.js";
import { linesOf } from "../../text/trim.js";
import { renderPage } from "./layout.js";

export const playgroundExample = {
  answer:
    "The Eiffel Tower stands in Paris. It was completed in 1889. The tower was designed by Leonardo da Vinci.",
  sources:
    "The Eiffel Tower is a wrought-iron lattice tower in Paris, France. It was completed in 1889 for the World's Fair. The tower was designed by the engineering company of Gustave Eiffel.",
};

/**
 * Sources are pasted in one field, separated by a line holding only `---` (spaces around it allowed). Split
 * line by line: a multiline regex with whitespace on both sides of the dashes retries across long blank runs.
 */
export const splitPastedSources = (field: string): string[] => {
  const sources: string[] = [];
  let current: string[] = [];
  for (const line of linesOf(field)) {
    if (line.trim() === "---") {
      sources.push(current.join("\n"));
      current = [];
    } else current.push(line);
  }
  sources.push(current.join("\n"));
  return sources;
};

export interface PlaygroundInput {
  readonly answer: string;
  readonly sources: string;
}

const renderResult = (input: PlaygroundInput, result: VerificationResult): string => {
  const sourceList = splitPastedSources(input.sources).map((source) => source.trim());
  const rows = result.claims
    .map((claim, index) => {
      const evidence = claim.evidence[0];
      const reasons = claim.issues.map((issue) => issue.message).join("; ") || "—";
      return `<tr><td><a href="#claim-${index}">${index + 1}</a></td><td>${escapeHtml(claim.verdict)}</td><td>${escapeHtml(claim.text)}</td><td>${escapeHtml(reasons)}</td><td>${
        evidence
          ? `<blockquote>${escapeHtml(evidence.text)}</blockquote><small>source ${evidence.source + 1}${sourceList[evidence.source] === undefined ? " (context)" : ""}</small>`
          : "no supporting passage"
      }</td></tr>`;
    })
    .join("");
  return `<section aria-labelledby="result-heading" id="result">
<h2 id="result-heading">Result: ${result.passed ? "passed" : "failed"} (confidence ${result.overallConfidence.toFixed(2)})</h2>
<ul>${result.reasons.map((reason) => `<li>${escapeHtml(reason)}</li>`).join("")}</ul>
<p>Claims are highlighted by verdict: green supported, red unsupported, purple contradicted, yellow unverifiable. Each verdict is also written in the table.</p>
<div class="answer">${highlightClaims(input.answer, result.claims)}</div>
<table><caption>Claims</caption><thead><tr><th scope="col">#</th><th scope="col">Verdict</th><th scope="col">Claim</th><th scope="col">Reason</th><th scope="col">Closest evidence</th></tr></thead>
<tbody>${rows}</tbody></table></section>`;
};

export const renderPlaygroundPage = (
  userId: string,
  input: PlaygroundInput,
  result?: VerificationResult,
  error?: string,
): string =>
  renderPage({
    title: "Verification playground",
    userId,
    body: `<p>Paste an answer and its sources: every claim is checked offline against the sources. <a href="/ui/playground?example=1">Load an example</a>.</p>
${error === undefined ? "" : `<p class="error" role="alert">${escapeHtml(error)}</p>`}
<form method="post" action="/ui/playground">
<label for="answer">Answer</label>
<textarea id="answer" name="answer" rows="5" maxlength="100000" required>${escapeHtml(input.answer)}</textarea>
<label for="sources">Sources (separate several with a line holding only <code>---</code>)</label>
<textarea id="sources" name="sources" rows="8" maxlength="1000000" required>${escapeHtml(input.sources)}</textarea>
<p><button class="primary" type="submit">Verify</button></p>
</form>
${result === undefined ? "" : renderResult(input, result)}`,
  });
