import { Effect } from "effect";
import { LLMService } from "../../../llm/llm-service.js";
import type { ClaimFinding, Evidence } from "../../../model/claim.js";
import { InsufficientSourcesError } from "../../../model/errors.js";
import type { Claim, EvidenceSource, LayerInput, VerificationLayer } from "../../../model/layer.js";
import { clamp01, finding, mean } from "../shared/findings.js";
import { claimsToJudge } from "../shared/layer-claims.js";
import { findSpan } from "../shared/locate.js";
import { modelReadiness } from "../shared/readiness.js";
import { runModelLayer } from "../shared/run-model-layer.js";
import { SourceVerdict, sourceMessages } from "./prompts.js";

export interface MultiSourceOptions {
  /** Supporting sources a claim needs (default 2). */
  readonly minSupportingSources?: number;
  /** Share of the sources that must support a claim (default 0.6). */
  readonly minAgreement?: number;
  /** Sources judged at most (default 10): one model call each. */
  readonly maxSources?: number;
  readonly timeoutMs?: number;
}

const layer = "multi-source" as const;

type Judgement = SourceVerdict["claims"][number];

const evidenceOf = (source: EvidenceSource, judgement: Judgement): Evidence[] => {
  if (judgement.relation === "not-mentioned") return [];
  const span = findSpan(source.text, judgement.quote);
  if (span === undefined) return [];
  return [
    {
      source: source.index,
      span,
      text: source.text.slice(span.start, span.end),
      score: clamp01(judgement.confidence),
      relation: judgement.relation === "supports" ? "supports" : "contradicts",
    },
  ];
};

/**
 * Multi-source: each source gives a structured verdict on every claim (one call per source); a claim
 * passes with at least 2 supporting sources and agreement >= 0.6. Fewer than 2 sources is reported as
 * `InsufficientSourcesError` data in `details`, and the layer fails.
 */
export const makeMultiSourceLayer = (options: MultiSourceOptions = {}) =>
  Effect.gen(function* () {
    const llm = yield* LLMService;
    const required = options.minSupportingSources ?? 2;
    const minAgreement = options.minAgreement ?? 0.6;
    const maxSources = Math.max(required, options.maxSources ?? 10);

    const claimFinding = (
      claim: Claim,
      position: number,
      sources: readonly EvidenceSource[],
      verdicts: readonly SourceVerdict[],
    ) => {
      const judgements = verdicts.map(
        (verdict): Judgement =>
          verdict.claims.find((entry) => entry.claim === position) ?? {
            claim: position,
            relation: "not-mentioned",
            confidence: 0,
            quote: "",
          },
      );
      const supporting = judgements.filter((entry) => entry.relation === "supports").length;
      const contradicting = judgements.filter((entry) => entry.relation === "contradicts").length;
      const agreement = judgements.length === 0 ? 0 : supporting / judgements.length;
      const averageConfidence = mean(judgements.map((entry) => entry.confidence));
      const passed = supporting >= required && agreement >= minAgreement;
      const evidence = judgements.flatMap((entry, index) => {
        const source = sources[index];
        return source === undefined ? [] : evidenceOf(source, entry);
      });
      const result: ClaimFinding = finding({
        layer,
        text: claim.text,
        span: claim.span,
        kind: claim.kind,
        verdict: passed ? "supported" : contradicting > supporting ? "contradicted" : "unsupported",
        score: agreement * averageConfidence,
        evidence,
        ...(passed
          ? {}
          : {
              issue: {
                code: contradicting > 0 ? "sources-contradict" : "too-few-supporting-sources",
                message: `${supporting} of ${judgements.length} sources support this claim, ${contradicting} contradict it (needs ${required} and agreement ${minAgreement}).`,
              },
            }),
      });
      return { finding: result, passed, supporting, contradicting, agreement, averageConfidence };
    };

    const run = (input: LayerInput) =>
      runModelLayer(
        layer,
        options.timeoutMs ?? 20_000,
        input,
        Effect.gen(function* () {
          const allSources = input.evidence.filter((item) => item.origin === "source");
          if (allSources.length < required) {
            const error = new InsufficientSourcesError({
              message: `multi-source needs at least ${required} sources, got ${allSources.length}`,
              required,
              available: allSources.length,
            });
            return {
              passed: false,
              score: 0,
              details: {
                error: { _tag: error._tag, message: error.message, required, available: allSources.length },
              },
            };
          }
          const sources = allSources.slice(0, maxSources);
          const { claims, notJudged } = claimsToJudge(input);
          const verdicts = yield* Effect.all(
            sources.map((source) =>
              Effect.map(
                llm.completeStructured({
                  messages: sourceMessages(claims, source.text),
                  schema: SourceVerdict,
                  schemaName: "source_verdict",
                  purpose: `${layer}.source`,
                  temperature: 0,
                }),
                ({ value }) => value,
              ),
            ),
            { concurrency: sources.length },
          );
          const perClaim = claims.map((claim, position) => claimFinding(claim, position, sources, verdicts));
          return {
            passed: perClaim.every((item) => item.passed) && notJudged === 0,
            score: mean(perClaim.map((item) => item.finding.score)),
            claims: perClaim.map((item) => item.finding),
            details: {
              sourcesChecked: sources.length,
              sourcesNotChecked: allSources.length - sources.length,
              perClaim: perClaim.map(({ supporting, contradicting, agreement, averageConfidence }) => ({
                supporting,
                contradicting,
                agreementRate: agreement,
                avgConfidence: averageConfidence,
              })),
              perSourceResults: verdicts,
              notJudgedClaims: notJudged,
            },
          };
        }),
      );

    return {
      name: layer,
      kind: "model",
      readiness: (input) => modelReadiness(llm, input),
      run,
    } satisfies VerificationLayer;
  });
