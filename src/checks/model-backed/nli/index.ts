import { Effect } from "effect";
import { LLMService } from "../../../llm/llm-service.js";
import type { ClaimVerdict } from "../../../model/claim.js";
import { VerificationError } from "../../../model/errors.js";
import { type LayerInput, notReady, type VerificationLayer } from "../../../model/layer.js";
import { finding, mean } from "../shared/findings.js";
import { claimsToJudge } from "../shared/layer-claims.js";
import { modelReadiness } from "../shared/readiness.js";
import { runModelLayer } from "../shared/run-model-layer.js";
import { NliAnswer, type NliRelationship, nliMessages } from "./prompts.js";

export interface NliOptions {
  /** Premise text sent at most (default 60 000 characters); longer evidence fails the layer as not fully read. */
  readonly maxPremiseChars?: number;
  readonly timeoutMs?: number;
}

const layer = "nli" as const;

const verdictOf: Record<NliRelationship, ClaimVerdict> = {
  entailment: "supported",
  contradiction: "contradicted",
  neutral: "unverifiable",
};

/**
 * A claim's score from the model's classification: the confidence for entailment, half of it for neutral, its
 * complement for contradiction. A confident contradiction scores near 0; a neutral claim never above 0.5.
 */
export const nliScore = (relationship: NliRelationship, confidence: number): number =>
  relationship === "entailment" ? confidence : relationship === "neutral" ? 0.5 * confidence : 1 - confidence;

/**
 * Natural language inference: every claim is classified against the context and sources (the premise)
 * in one structured call. Not ready without a premise. Fails on any contradiction, and on a claim the
 * model did not classify.
 */
export const makeNliLayer = (options: NliOptions = {}) =>
  Effect.gen(function* () {
    const llm = yield* LLMService;
    const maxPremiseChars = options.maxPremiseChars ?? 60_000;

    const run = (input: LayerInput) =>
      runModelLayer(
        layer,
        options.timeoutMs ?? 10_000,
        input,
        Effect.gen(function* () {
          if (input.evidence.length === 0) {
            return yield* Effect.fail(
              new VerificationError({
                message: "nli needs a premise: no context or sources were given",
                layer,
              }),
            );
          }
          const { claims, notJudged } = claimsToJudge(input);
          const premises = [];
          let budget = maxPremiseChars;
          for (const item of input.evidence) {
            premises.push({ ...item, text: item.text.slice(0, Math.max(0, budget)) });
            budget -= item.text.length;
          }
          const answer = yield* llm.completeStructured({
            messages: nliMessages(premises, claims),
            schema: NliAnswer,
            schemaName: "nli",
            purpose: `${layer}.classify`,
            temperature: 0,
          });
          const perClaim = claims.map((claim, position) => {
            const judged = answer.value.claims.find((entry) => entry.claim === position);
            if (judged === undefined) {
              return {
                relationship: undefined,
                finding: finding({
                  layer,
                  text: claim.text,
                  span: claim.span,
                  kind: claim.kind,
                  verdict: "unverifiable",
                  score: 0,
                  issue: { code: "not-judged", message: "The model did not classify this claim." },
                }),
              };
            }
            const verdict = verdictOf[judged.relationship];
            return {
              relationship: judged,
              finding: finding({
                layer,
                text: claim.text,
                span: claim.span,
                kind: claim.kind,
                verdict,
                score: nliScore(judged.relationship, judged.confidence),
                ...(verdict === "contradicted"
                  ? { issue: { code: "contradicts-context", message: judged.explanation } }
                  : {}),
              }),
            };
          });
          const unjudged = perClaim.filter((item) => item.relationship === undefined).length;
          const contradictions = perClaim.filter(
            (item) => item.relationship?.relationship === "contradiction",
          ).length;
          return {
            passed: contradictions === 0 && unjudged === 0 && notJudged === 0 && budget >= 0,
            score: mean(perClaim.map((item) => item.finding.score)),
            claims: perClaim.map((item) => item.finding),
            details: {
              contradictions,
              unjudgedClaims: unjudged + notJudged,
              premiseTruncated: budget < 0,
              perClaim: perClaim.map((item) => item.relationship ?? null),
            },
          };
        }),
      );

    return {
      name: layer,
      kind: "model",
      readiness: (input) =>
        input.evidence.length === 0
          ? notReady("nli needs a premise: no context or sources were given")
          : modelReadiness(llm, input),
      run,
    } satisfies VerificationLayer;
  });
