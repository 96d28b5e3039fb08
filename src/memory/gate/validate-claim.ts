import { Clock, Effect, ParseResult, Schema } from "effect";
import { InputError } from "../../model/errors.js";
import { normalizeText } from "../../text/normalize.js";
import { CitationVerifier } from "../citations/citation-verifier.js";
import { detectCitations } from "../citations/detect-citations.js";
import { DuplicateChecker } from "../dedup/duplicate-checker.js";
import { buildEvidence } from "../evidence/build-evidence.js";
import { detectHedges } from "../hedges/detect-hedges.js";
import { MemoryCandidate, type ValidationResult } from "../model.js";
import { ClaimSupportChecker } from "../relevance/claim-support-checker.js";
import { decideTier } from "../tiers/decide-tier.js";
import { describeChecks } from "../tiers/describe-checks.js";
import type { CitationOutcome, DuplicateOutcome } from "../tiers/tier-inputs.js";
import { checkCitation, claimWithoutCitations } from "./check-citations.js";
import { type MemoryGateConfig, tierPolicyOf } from "./gate-config.js";

export const decodeCandidate = (input: unknown): Effect.Effect<MemoryCandidate, InputError> =>
  Schema.decodeUnknown(MemoryCandidate)(input).pipe(
    Effect.mapError(
      (error) =>
        new InputError({
          code: "invalid_memory",
          message: `invalid memory claim: ${ParseResult.TreeFormatter.formatErrorSync(error)}`,
        }),
    ),
  );

/**
 * Validates one claim: hedges, duplicates and citations, then the tier. Outages never fail the validation:
 * a dedup failure or an unverifiable citation is recorded and sends the claim to review. Citations are not
 * verified for a claim already blocked.
 */
export const validateClaim = (input: unknown, config: MemoryGateConfig) =>
  Effect.gen(function* () {
    const decoded = yield* decodeCandidate(input);
    // Rules read the text normalized (NFC, white space folded): "I  guess" or "I\u00A0guess" is still a hedge.
    const candidate = { ...decoded, content: normalizeText(decoded.content) };
    const policy = tierPolicyOf(config);
    const captureTime = new Date(yield* Clock.currentTimeMillis);
    const hedges = detectHedges(candidate.content);

    const checker = yield* DuplicateChecker;
    const lookup = checker.check({ content: candidate.content, userId: candidate.userId });
    const duplicate: DuplicateOutcome = !config.enableDedup
      ? { status: "disabled" }
      : yield* (
          checker.bounded === true
            ? lookup
            : lookup.pipe(
                Effect.timeoutFail({
                  duration: config.dedupTimeoutMs,
                  onTimeout: () => ({ message: `timed out after ${config.dedupTimeoutMs} ms` }),
                }),
              )
        ).pipe(
          Effect.map(
            (check): DuplicateOutcome =>
              check.isDuplicate && check.memoryId !== undefined
                ? { status: "duplicate", similarity: check.similarity ?? 1, memoryId: check.memoryId }
                : { status: "unique" },
          ),
          Effect.catchAll((error) =>
            Effect.succeed<DuplicateOutcome>({ status: "failed", reason: error.message }),
          ),
        );

    const detected = detectCitations(candidate.content);
    const blocked = hedges.action === "block" || duplicate.status === "duplicate";
    const verifier = yield* CitationVerifier;
    const support = yield* ClaimSupportChecker;
    const claimToSupport = claimWithoutCitations(candidate.content, detected);
    const citations: readonly CitationOutcome[] = blocked
      ? detected.map((citation) => ({ id: citation.id, status: "skipped" as const }))
      : yield* Effect.forEach(
          detected,
          (citation) =>
            checkCitation(citation, claimToSupport, verifier, support, {
              verifyClaimRelevance: config.verifyClaimRelevance,
              timeoutMs: config.citationTimeoutMs,
            }),
          { concurrency: 4 },
        );

    const inputs = {
      hedges,
      duplicate,
      citations,
      source: candidate.source,
      memoryType: candidate.memoryType,
    };
    const decision = decideTier(inputs, policy);
    const checks = describeChecks(inputs, policy);
    const validUntil =
      candidate.validUntil ??
      (config.defaultValidityMs === undefined
        ? undefined
        : new Date(captureTime.getTime() + config.defaultValidityMs));
    const evidence = buildEvidence({
      claim: candidate.content,
      captureTime,
      tier: decision.tier,
      source: candidate.source,
      trustedSource:
        policy.trustedSources.has(candidate.source) && !policy.aiSynthesisSources.has(candidate.source),
      citations,
      ...(validUntil === undefined ? {} : { validUntil }),
      memoryType: candidate.memoryType,
      ...(candidate.metadata === undefined ? {} : { metadata: candidate.metadata }),
    });
    const result: ValidationResult = {
      tier: decision.tier,
      approved: decision.tier === "auto-approve",
      reason: decision.reason,
      evidence,
      checksPassed: checks.passed,
      checksFailed: checks.failed,
      ...(duplicate.status === "duplicate"
        ? { similarityScore: duplicate.similarity, conflictingMemoryId: duplicate.memoryId }
        : {}),
    };
    return { candidate, result };
  });
