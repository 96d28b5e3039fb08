import { Effect } from "effect";
import { LLMService } from "../../../llm/llm-service.js";
import type { ClaimFinding } from "../../../model/claim.js";
import type { Claim, LayerInput, VerificationLayer } from "../../../model/layer.js";
import { finding, mean } from "../shared/findings.js";
import { claimsToJudge } from "../shared/layer-claims.js";
import { modelReadiness } from "../shared/readiness.js";
import { runModelLayer } from "../shared/run-model-layer.js";
import { clusterMessages, MeaningClusters, SampleAnswer, sampleMessages } from "./prompts.js";
import { type ClaimStability, stabilityFromClusters, stabilityFromEmbeddings } from "./scoring.js";

export interface SemanticEntropyOptions {
  /** Samples drawn (default 3, at most 10). */
  readonly samples?: number;
  /**
   * How samples are compared: by embedding similarity (default), or clustered by bidirectional entailment
   * with the entropy taken over clusters (Farquhar et al., Nature 2024), one extra model call.
   */
  readonly method?: "embedding" | "entailment";
  /**
   * A claim passes when its stability score reaches this. Default 0.7: the samples' entropy must be at most
   * 0.3, and their agreement with the claim at least 0.7.
   */
  readonly threshold?: number;
  readonly temperature?: number;
  readonly timeoutMs?: number;
}

const layer = "semantic-entropy" as const;
const unknownStatement = "unknown";

/** Statement of each claim in one sample, "unknown" where the model gave none. */
const statementsOf = (sample: SampleAnswer, claimCount: number): string[] =>
  Array.from(
    { length: claimCount },
    (_, position) =>
      sample.answers.find((answer) => answer.claim === position)?.statement ?? unknownStatement,
  );

/**
 * Semantic entropy: the same question is sampled several times; answers that disagree with one another
 * or with the claim mean the model is unsure, a sign of a fabricated claim. One call per sample (all
 * claims batched) plus one embedding call (or one clustering call).
 */
export const makeSemanticEntropyLayer = (options: SemanticEntropyOptions = {}) =>
  Effect.gen(function* () {
    const llm = yield* LLMService;
    const samples = Math.min(10, Math.max(2, options.samples ?? 3));
    const method = options.method ?? "embedding";
    const threshold = options.threshold ?? 0.7;
    const timeoutMs = options.timeoutMs ?? 10_000;

    const stabilities = (claims: readonly Claim[], statements: readonly string[][]) =>
      method === "entailment"
        ? Effect.map(
            llm.completeStructured({
              messages: clusterMessages(
                claims.map((claim, position) => ({ claim, statements: statements[position] ?? [] })),
              ),
              schema: MeaningClusters,
              schemaName: "meaning_clusters",
              purpose: `${layer}.cluster`,
              temperature: 0,
            }),
            ({ value }) =>
              claims.map((_, position) =>
                stabilityFromClusters(
                  value.claims.find((entry) => entry.claim === position)?.clusters ?? [],
                  samples,
                ),
              ),
          )
        : Effect.map(
            llm.embed(
              claims.flatMap((claim, position) => [claim.text, ...(statements[position] ?? [])]),
              { purpose: `${layer}.embed` },
            ),
            ({ vectors }) =>
              claims.map((_, position) =>
                stabilityFromEmbeddings(
                  vectors.slice(position * (samples + 1), (position + 1) * (samples + 1)),
                ),
              ),
          );

    const run = (input: LayerInput) =>
      runModelLayer(
        layer,
        timeoutMs,
        input,
        Effect.gen(function* () {
          const { claims, notJudged } = claimsToJudge(input);
          const drawn = yield* Effect.all(
            Array.from({ length: samples }, (_, sample) =>
              llm.completeStructured({
                messages: sampleMessages(claims, input.question),
                schema: SampleAnswer,
                schemaName: "statements",
                purpose: `${layer}.sample`,
                temperature: options.temperature ?? 1,
                sample,
              }),
            ),
            { concurrency: samples },
          );
          const perSample = drawn.map(({ value }) => statementsOf(value, claims.length));
          const statements = claims.map((_, position) =>
            perSample.map((sample) => sample[position] ?? unknownStatement),
          );
          const scores: readonly ClaimStability[] = yield* stabilities(claims, statements);
          const findings: ClaimFinding[] = claims.map((claim, position) => {
            const stability = scores[position] ?? { score: 0, entropy: 1, consistency: 0, support: 0 };
            const stable = stability.score >= threshold;
            return finding({
              layer,
              text: claim.text,
              span: claim.span,
              kind: claim.kind,
              verdict: stable ? "supported" : "unsupported",
              score: stability.score,
              ...(stable
                ? {}
                : {
                    issue: {
                      code: "unstable-answer",
                      message:
                        `Sampled answers about this claim disagree (consistency ${stability.consistency.toFixed(2)}, ` +
                        `agreement with the claim ${stability.support.toFixed(2)}).`,
                    },
                  }),
            });
          });
          const claimScores = findings.map((item) => item.score);
          return {
            passed: findings.every((item) => item.verdict === "supported") && notJudged === 0,
            score: mean(claimScores),
            claims: findings,
            details: {
              method,
              generationCount: samples,
              threshold,
              entropy: mean(scores.map((item) => item.entropy)),
              weakestClaimScore: Math.min(...claimScores),
              perClaim: scores,
              statements,
              notJudgedClaims: notJudged,
            },
          };
        }),
      );

    return {
      name: layer,
      kind: "model",
      readiness: (input) => modelReadiness(llm, input, { embeddings: method === "embedding" }),
      run,
    } satisfies VerificationLayer;
  });
