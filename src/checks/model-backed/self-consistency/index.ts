import { Effect } from "effect";
import { LLMService } from "../../../llm/llm-service.js";
import type { LayerInput, VerificationLayer } from "../../../model/layer.js";
import { finding, mean } from "../shared/findings.js";
import { claimsToJudge } from "../shared/layer-claims.js";
import { modelReadiness } from "../shared/readiness.js";
import { runModelLayer } from "../shared/run-model-layer.js";
import { ConsistencyCheck, consistencyMessages, paraphrases } from "./prompts.js";

export interface SelfConsistencyOptions {
  /** A claim passes when this share of the answers agrees with it (default 0.8). */
  readonly minAgreement?: number;
  readonly temperature?: number;
  readonly timeoutMs?: number;
}

const layer = "self-consistency" as const;

/**
 * Self-consistency: the claims are judged under five paraphrased prompts (one call each, all claims
 * batched); agreement is the share of answers agreeing with a claim, consistency the share giving the
 * majority answer. A claim the model skipped in an answer counts as not agreeing.
 */
export const makeSelfConsistencyLayer = (options: SelfConsistencyOptions = {}) =>
  Effect.gen(function* () {
    const llm = yield* LLMService;
    const minAgreement = options.minAgreement ?? 0.8;

    const run = (input: LayerInput) =>
      runModelLayer(
        layer,
        options.timeoutMs ?? 15_000,
        input,
        Effect.gen(function* () {
          const { claims, notJudged } = claimsToJudge(input);
          const answers = yield* Effect.all(
            paraphrases.map((paraphrase) =>
              Effect.map(
                llm.completeStructured({
                  messages: consistencyMessages(paraphrase, claims),
                  schema: ConsistencyCheck,
                  schemaName: "consistency_check",
                  purpose: `${layer}.judge`,
                  temperature: options.temperature ?? 0.7,
                }),
                ({ value }) => value,
              ),
            ),
            { concurrency: paraphrases.length },
          );
          const perClaim = claims.map((claim, position) => {
            const judgements = answers.map((answer) =>
              answer.claims.find((entry) => entry.claim === position),
            );
            const agreements = judgements.filter((entry) => entry?.agrees === true).length;
            const disagreements = judgements.filter((entry) => entry?.agrees === false).length;
            const agreement = agreements / answers.length;
            const consistency = Math.max(agreements, disagreements) / answers.length;
            const averageConfidence = mean(judgements.map((entry) => entry?.confidence ?? 0));
            const passed = agreement >= minAgreement;
            const verdict = passed
              ? "supported"
              : disagreements / answers.length >= minAgreement
                ? "contradicted"
                : "unsupported";
            return {
              passed,
              stats: { agreements, agreementRate: agreement, consistency, avgConfidence: averageConfidence },
              reasonings: judgements.map((entry) => entry?.reasoning ?? "no answer for this claim"),
              finding: finding({
                layer,
                text: claim.text,
                span: claim.span,
                kind: claim.kind,
                verdict,
                score: agreement * averageConfidence,
                ...(passed
                  ? {}
                  : {
                      issue: {
                        code: verdict === "contradicted" ? "model-disagrees" : "inconsistent-judgement",
                        message: `${agreements} of ${answers.length} paraphrased checks agree with this claim.`,
                      },
                    }),
              }),
            };
          });
          return {
            passed: perClaim.every((item) => item.passed) && notJudged === 0,
            score: mean(perClaim.map((item) => item.finding.score)),
            claims: perClaim.map((item) => item.finding),
            details: {
              variations: answers.length,
              consistencyRate: mean(perClaim.map((item) => item.stats.agreementRate)),
              perClaim: perClaim.map((item) => item.stats),
              reasonings: perClaim.map((item) => item.reasonings),
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
