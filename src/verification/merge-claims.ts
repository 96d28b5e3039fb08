import { type ClaimFinding, worseVerdict } from "../model/claim.js";
import type { LayerResult } from "../model/layer-result.js";

const key = (finding: ClaimFinding): string => `${finding.span.start}:${finding.span.end}`;

/**
 * One finding per claim across layers: the worst verdict, the lowest score, all evidence and issues, and the
 * layers that judged it. Claims are keyed by span, so layers that judged the same segmented claim agree;
 * a layer's claim with a span of its own stays separate. Sorted in text order.
 */
export const mergeClaimFindings = (results: readonly LayerResult[]): ClaimFinding[] => {
  const merged = new Map<string, ClaimFinding>();
  for (const result of results) {
    for (const finding of result.claims ?? []) {
      const existing = merged.get(key(finding));
      if (!existing) {
        merged.set(key(finding), finding);
        continue;
      }
      merged.set(key(finding), {
        ...existing,
        verdict: worseVerdict(existing.verdict, finding.verdict),
        score: Math.min(existing.score, finding.score),
        evidence: [...existing.evidence, ...finding.evidence],
        issues: [...existing.issues, ...finding.issues],
        layers: [...new Set([...existing.layers, ...finding.layers])],
      });
    }
  }
  return [...merged.values()].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
};
