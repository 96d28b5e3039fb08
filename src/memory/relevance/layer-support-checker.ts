import { Effect, Layer } from "effect";
import { makeGroundingLayer } from "../../checks/grounding/index.js";
import { VerificationError } from "../../model/errors.js";
import type { VerificationLayer } from "../../model/layer.js";
import { segmentClaims } from "../../text/claims.js";
import { contentTokens, tokenize } from "../../text/tokens.js";
import { ClaimSupportChecker, type ClaimSupportCheckerService } from "./claim-support-checker.js";

/**
 * Judges claim support with any verification layer that reads evidence: the offline grounding layer by
 * default, the NLI layer when a model is configured. Every sentence of the claim that carries content words
 * must be judged `supported`; a claim with none (a bare pointer: "See https://...") asserts nothing beyond its
 * citation and is supported by it.
 */
export const makeLayerSupportChecker = (layer: VerificationLayer): ClaimSupportCheckerService => ({
  check: (claim, artifact) =>
    Effect.gen(function* () {
      const claims = segmentClaims(claim).filter((c) => contentTokens(tokenize(c.text)).length > 0);
      if (claims.length === 0)
        return { supported: true, score: 1, reason: "the claim asserts nothing beyond its citation" };
      const input = {
        text: claim,
        claims,
        evidence: [{ index: 0, origin: "source" as const, text: artifact }],
      };
      const readiness = layer.readiness(input);
      if (!readiness.ready)
        return yield* Effect.fail(
          new VerificationError({
            message: `relevance check could not run: ${readiness.reason}`,
            layer: layer.name,
          }),
        );
      const result = yield* layer.run(input);
      const findings = result.claims ?? [];
      const judged = findings.length === claims.length;
      const unsupported = findings.filter((finding) => finding.verdict !== "supported");
      const score = findings.reduce((lowest, finding) => Math.min(lowest, finding.score), result.score);
      if (!judged)
        return {
          supported: false,
          score,
          reason: `${layer.name} judged ${findings.length} of ${claims.length} sentences`,
        };
      return unsupported.length === 0 && result.passed
        ? { supported: true, score, reason: `the cited artifact supports the claim (${layer.name})` }
        : {
            supported: false,
            score,
            reason: `the cited artifact does not support: ${unsupported.map((finding) => `"${finding.text}" (${finding.verdict})`).join(", ") || "the claim"}`,
          };
    }),
});

export const makeGroundingSupportChecker = (): ClaimSupportCheckerService =>
  makeLayerSupportChecker(makeGroundingLayer());

export const GroundingSupportCheckerLayer = Layer.sync(ClaimSupportChecker, makeGroundingSupportChecker);
