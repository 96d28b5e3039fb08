import { Effect } from "effect";
import { LLMService } from "../../../llm/llm-service.js";
import type { ClaimFinding, ClaimKind, ClaimVerdict } from "../../../model/claim.js";
import { VerificationError } from "../../../model/errors.js";
import type { Claim, LayerInput, VerificationLayer } from "../../../model/layer.js";
import { FactualMemory, type MemoryHit } from "../factual-memory.js";
import { finding, mean } from "../shared/findings.js";
import { claimsToJudge } from "../shared/layer-claims.js";
import { closestClaim, locateFact } from "../shared/locate.js";
import { modelReadiness } from "../shared/readiness.js";
import { runModelLayer } from "../shared/run-model-layer.js";
import { memoryConfirms } from "./memory-confirmation.js";
import { AtomicFacts, checkMessages, decomposeMessages, FactChecks } from "./prompts.js";

export interface FactDecompositionOptions {
  /** Pass when at least this share of the factual facts is verified (default 0.9). */
  readonly passRate?: number;
  /** A memory hit at or above this similarity verifies a fact without a model call (default 0.9). */
  readonly memorySimilarity?: number;
  readonly timeoutMs?: number;
}

const layer = "fact-decomposition" as const;
/** At most this many atomic facts are checked; more fail the layer as not fully checked. */
export const maxFacts = 80;

interface CheckedFact {
  readonly claim: number;
  readonly fact: string;
  readonly type: ClaimKind;
  readonly verified: boolean;
  readonly verdict: ClaimVerdict;
  readonly source: "memory" | "model" | "none";
  readonly reason?: string;
  readonly memoryHits?: readonly MemoryHit[];
}

const verdictRank: Record<ClaimVerdict, number> = {
  supported: 0,
  unverifiable: 1,
  unsupported: 2,
  contradicted: 3,
};

/** Claim findings from its facts: the worst verdict of its factual facts; opinions alone are unverifiable. */
const claimFinding = (
  text: string,
  claim: Claim,
  position: number,
  facts: readonly CheckedFact[],
): ClaimFinding => {
  const own = facts.filter((fact) => fact.claim === position);
  const factual = own.filter((fact) => fact.type === "factual");
  if (factual.length === 0) {
    const kind = own[0]?.type ?? claim.kind;
    return finding({ layer, text: claim.text, span: claim.span, kind, verdict: "unverifiable", score: 0.5 });
  }
  const worst = factual.reduce((a, b) => (verdictRank[b.verdict] > verdictRank[a.verdict] ? b : a));
  const score = factual.filter((fact) => fact.verified).length / factual.length;
  return finding({
    layer,
    text: claim.text,
    span: claim.span,
    kind: "factual",
    verdict: worst.verdict,
    score,
    ...(worst.verdict === "supported"
      ? {}
      : {
          issue: {
            code: worst.verdict === "contradicted" ? "fact-contradicted" : "fact-unverified",
            message: `"${worst.fact}": ${worst.reason ?? "not verified"}`,
            span: locateFact(text, worst.fact, [claim], claim.span),
          },
        }),
  });
};

/**
 * Fact decomposition: the text is split into atomic facts (one structured call); factual ones are
 * looked up in the factual memory first, and the rest are checked by the model in one batched call.
 */
export const makeFactDecompositionLayer = (options: FactDecompositionOptions = {}) =>
  Effect.gen(function* () {
    const llm = yield* LLMService;
    const memory = yield* FactualMemory;
    const passRate = options.passRate ?? 0.9;
    const memorySimilarity = options.memorySimilarity ?? 0.9;

    const lookUp = (fact: string) =>
      Effect.mapError(
        memory.search(fact, { limit: 3, minSimilarity: 0.8 }),
        (error) =>
          new VerificationError({
            message: `${layer}: fact memory failed: ${error.message}`,
            layer,
            cause: error,
          }),
      );

    const run = (input: LayerInput) =>
      runModelLayer(
        layer,
        options.timeoutMs ?? 15_000,
        input,
        Effect.gen(function* () {
          const { claims, notJudged } = claimsToJudge(input);
          const decomposition = yield* llm.completeStructured({
            messages: decomposeMessages(claims),
            schema: AtomicFacts,
            schemaName: "atomic_facts",
            purpose: `${layer}.decompose`,
            temperature: 0,
          });
          const all = decomposition.value.facts;
          if (all.length === 0) {
            return yield* Effect.fail(
              new VerificationError({ message: `${layer}: the model found no facts in the text`, layer }),
            );
          }
          const facts = all.slice(0, maxFacts).map((fact) => ({
            ...fact,
            claim: fact.claim < claims.length ? fact.claim : closestClaim(fact.fact, claims),
          }));
          const factual = facts.filter((fact) => fact.type === "factual");
          const lookups = yield* Effect.forEach(factual, (fact) => lookUp(fact.fact), { concurrency: 5 });
          // A near miss (another year, swapped roles, a dropped "not") is similar but confirms nothing.
          const fromMemory = new Set(
            factual.flatMap((fact, index) =>
              (lookups[index] ?? []).some(
                (hit) => hit.similarity >= memorySimilarity && memoryConfirms(fact.fact, hit.fact),
              )
                ? [index]
                : [],
            ),
          );
          const toModel = factual.flatMap((fact, index) => (fromMemory.has(index) ? [] : [{ fact, index }]));
          const checks =
            toModel.length === 0
              ? []
              : (yield* llm.completeStructured({
                  messages: checkMessages(
                    toModel.map(({ fact }) => fact.fact),
                    input.context,
                  ),
                  schema: FactChecks,
                  schemaName: "fact_checks",
                  purpose: `${layer}.check`,
                  temperature: 0,
                })).value.verdicts;
          const checked: CheckedFact[] = facts.map((fact) => {
            if (fact.type !== "factual")
              return { ...fact, verified: false, verdict: "unverifiable", source: "none" };
            const index = factual.indexOf(fact);
            const hits = lookups[index] ?? [];
            if (fromMemory.has(index)) {
              return { ...fact, verified: true, verdict: "supported", source: "memory", memoryHits: hits };
            }
            const asked = toModel.findIndex((entry) => entry.index === index);
            const check = checks.find((entry) => entry.fact === asked);
            const verdict: ClaimVerdict =
              check === undefined
                ? "unsupported"
                : check.verdict === "unverifiable"
                  ? "unsupported"
                  : check.verdict;
            return {
              ...fact,
              verified: verdict === "supported",
              verdict,
              source: "model",
              reason: check?.reason ?? "the model gave no verdict for this fact",
              ...(hits.length > 0 ? { memoryHits: hits } : {}),
            };
          });
          const verifiedCount = checked.filter((fact) => fact.type === "factual" && fact.verified).length;
          const rate = factual.length === 0 ? 1 : verifiedCount / factual.length;
          const findings = claims.map((claim, position) =>
            claimFinding(input.text, claim, position, checked),
          );
          const truncated = all.length - facts.length;
          return {
            passed: rate >= passRate && notJudged === 0 && truncated === 0,
            score: rate,
            claims: findings,
            details: {
              totalFacts: all.length,
              factualClaims: factual.length,
              verifiedCount,
              verifiedFromMemory: fromMemory.size,
              passRate: rate,
              requiredPassRate: passRate,
              meanClaimScore: mean(findings.map((item) => item.score)),
              results: checked,
              notJudgedClaims: notJudged,
              factsNotChecked: truncated,
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
