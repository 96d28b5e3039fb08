import { Effect } from "effect";
import { isFailingVerdict } from "../../model/claim.js";
import { type LayerInput, notReady, ready, type VerificationLayer } from "../../model/layer.js";
import type { LayerResult } from "../../model/layer-result.js";
import type { Span } from "../../model/span.js";
import { spanIndex } from "../../text/span-index.js";
import { assessClaim, defaultGroundingOptions, type GroundingOptions } from "./assess-claim.js";
import { explainedNumbers, isExplained } from "./explained-numbers.js";
import { defaultIndexCacheLimits, type IndexCacheLimits, makeIndexCache } from "./index-cache.js";
import { periodsInSources } from "./periods.js";

export { assessClaim, defaultGroundingOptions, type GroundingOptions } from "./assess-claim.js";
export { buildSourceIndex } from "./source-index.js";

/**
 * The offline grounding layer: every claim is aligned to its best source passages (BM25 over source
 * sentences), scored by how much of it those passages cover, and checked for numbers, names and quotations
 * the sources lack and for negations and opposites that contradict the passage it matches.
 */
export const makeGroundingLayer = (
  overrides: Partial<GroundingOptions> = {},
  cacheLimits: IndexCacheLimits = defaultIndexCacheLimits,
): VerificationLayer => {
  const options: GroundingOptions = { ...defaultGroundingOptions, ...overrides };
  const indexFor = makeIndexCache(cacheLimits);
  const ground = (input: LayerInput, explained: readonly Span[]): LayerResult => {
    const started = performance.now();
    const index = indexFor(input.evidence);
    // Each claim is checked against the traced figures that meet it, not every figure of the answer.
    const meeting = spanIndex(explained).meeting;
    // A period the sources name in another form ("third quarter of 2025" for "Q3 2025") counts as found.
    const assessments = input.claims.map((claim) =>
      assessClaim(index, claim, options, [...meeting(claim.span), ...periodsInSources(index, claim)]),
    );
    const checked = assessments.filter((assessment) => assessment.checkable);
    const score = checked.reduce((lowest, assessment) => Math.min(lowest, assessment.finding.score), 1);
    const failing = checked.filter((assessment) => isFailingVerdict(assessment.finding.verdict));
    return {
      layer: "grounding" as const,
      passed: failing.length === 0,
      score,
      latencyMs: performance.now() - started,
      details: {
        claimsChecked: checked.length,
        claimsFailing: failing.length,
        passages: index.passages.length,
        meanCoverage:
          checked.length > 0 ? checked.reduce((sum, a) => sum + a.coverage, 0) / checked.length : 1,
        ...(explained.length > 0 ? { numbersTracedByNumbersLayer: explained.length } : {}),
      },
      claims: assessments.map((assessment) => assessment.finding),
    };
  };
  return {
    name: "grounding",
    kind: "evidence",
    synchronous: true,
    readiness: (input) =>
      input.evidence.some((source) => source.text.trim().length > 0)
        ? ready
        : notReady("no sources or context to ground the text against"),
    run: (input) => Effect.sync(() => ground(input, [])),
    cacheStats: indexFor.stats,
    // A number the numbers layer traced to a figure of the sources ("12.6 million" for 12,600,000) is not
    // absent from them: when a claim was marked down for one, the text is grounded again with those accepted.
    reconcile: (input, own, others) => {
      const claims = own.claims ?? [];
      if (claims.every((claim) => claim.issues.length === 0)) return own;
      const explained = explainedNumbers(others);
      const meeting = spanIndex(explained).meeting;
      const affected = claims.some((claim) => {
        const own = meeting(claim.span);
        return claim.issues.some((issue) => isExplained(own, issue.span));
      });
      if (!affected) return own;
      const revised = ground(input, explained);
      return { ...revised, latencyMs: own.latencyMs + revised.latencyMs };
    },
  };
};
