import { Effect, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { VerificationError } from "../../model/errors.js";
import { CitationVerifier } from "../citations/citation-verifier.js";
import { DuplicateChecker } from "../dedup/duplicate-checker.js";
import { LshDuplicateCheckerLayer } from "../dedup/lsh-duplicate-checker.js";
import { ClaimSupportChecker } from "../relevance/claim-support-checker.js";
import { makeGroundingSupportChecker } from "../relevance/layer-support-checker.js";
import { makeFakeCitationVerifier } from "../testing/fakes.js";
import { defaultMemoryGateConfig, type MemoryGateConfig } from "./gate-config.js";
import { validateClaim } from "./validate-claim.js";

const adr = { "ADR-003": "We use PostgreSQL for application data." };

const run = (
  input: Record<string, unknown>,
  options: {
    config?: Partial<MemoryGateConfig>;
    verifier?: ReturnType<typeof makeFakeCitationVerifier>;
    support?: Layer.Layer<ClaimSupportChecker>;
    dedup?: Layer.Layer<DuplicateChecker>;
  } = {},
) =>
  Effect.runPromiseExit(
    validateClaim(
      { userId: "u1", memoryType: "fact", source: "ai_synthesis", ...input },
      { ...defaultMemoryGateConfig, ...options.config },
    ).pipe(
      Effect.map(({ result }) => result),
      Effect.provide(
        Layer.mergeAll(
          options.dedup ?? LshDuplicateCheckerLayer(),
          Layer.succeed(CitationVerifier, options.verifier ?? makeFakeCitationVerifier(adr)),
          options.support ?? Layer.succeed(ClaimSupportChecker, makeGroundingSupportChecker()),
        ),
      ),
    ),
  );

const value = async (...args: Parameters<typeof run>) => {
  const exit = await run(...args);
  if (exit._tag === "Failure") throw new Error(`validation failed: ${String(exit.cause)}`);
  return exit.value;
};

describe("validateClaim", () => {
  it.each<[Record<string, unknown>, string]>([
    [{ content: "" }, "empty"],
    [{ content: "   " }, "blank"],
    [{ content: "x".repeat(10_001) }, "too long"],
    [{ content: "We use X", memoryType: "rumour" }, "unknown memory type"],
    [{ content: "We use X", userId: "" }, "no user"],
    [{ content: 42 }, "not text"],
    [{ content: "We use X", metadata: { blob: "x".repeat(10_001) } }, "metadata too large"],
  ])("refuses bad input with an InputError (%s: %s)", async (input) => {
    const exit = await run(input);
    expect(exit._tag).toBe("Failure");
    if (exit._tag === "Failure") expect(JSON.stringify(exit.cause)).toContain("InputError");
  });

  it("reads a hedge however it is spaced: doubled spaces, tabs, no-break and other Unicode spaces", async () => {
    const plain = await value({ content: "I guess we use PostgreSQL", source: "user" });
    expect(plain.checksPassed).not.toContain("no_speculation");
    for (const space of ["  ", "\t", "\u00A0", "\u2009", "\u3000", "\u200B "]) {
      const spaced = await value({ content: `I${space}guess we use PostgreSQL`, source: "user" });
      expect({ space, tier: spaced.tier, passed: spaced.checksPassed }).toEqual({
        space,
        tier: plain.tier,
        passed: plain.checksPassed,
      });
    }
  });

  it.each([
    ["a zero-width joiner", "I gu\u200Dess we use PostgreSQL"],
    ["a zero-width non-joiner", "I\u200C guess we use PostgreSQL"],
    ["a soft hyphen", "I gu\u00ADess we use PostgreSQL"],
    ["a decomposed accent around it", "I guess we use PostgreSQL at the cafe\u0301"],
  ])("reads a hedge hidden by %s", async (_case, content) => {
    const plain = await value({ content: "I guess we use PostgreSQL", source: "user" });
    const hidden = await value({ content, source: "user" });
    expect(hidden.checksPassed).not.toContain("no_speculation");
    expect(hidden.tier).toBe(plain.tier);
  });

  it("a duplicate check that hangs times out and sends the claim to review", async () => {
    const dedup = Layer.succeed(DuplicateChecker, {
      check: () => Effect.never,
      remember: () => Effect.void,
      forget: () => Effect.void,
    });
    const result = await value(
      { content: "We decided to use PostgreSQL", source: "conversation", memoryType: "decision" },
      { dedup, config: { dedupTimeoutMs: 20 } },
    );
    expect(result).toMatchObject({
      tier: "flag-review",
      reason: "Dedup check failed - cannot verify uniqueness",
    });
    expect(result.checksFailed).toContain("dedup_check_failed: timed out after 20 ms");
  });

  it("a citation verifier outage is not a verification: the claim is reviewed", async () => {
    const verifier = makeFakeCitationVerifier(adr, ["ADR-003"]);
    const result = await value({ content: "Per ADR-003, we use PostgreSQL" }, { verifier });
    expect(result.tier).toBe("flag-review");
    expect(result.checksFailed).toContain("citation_check_failed: ADR-003 (artifact store unreachable)");
  });

  it("asks the verifier about each detected citation, and not at all for a blocked claim", async () => {
    const verifier = makeFakeCitationVerifier(adr);
    await value({ content: "Per ADR-003 and ADR-999, we use PostgreSQL" }, { verifier });
    expect(verifier.calls.map((citation) => citation.id)).toEqual(["ADR-003", "ADR-999"]);
    const quiet = makeFakeCitationVerifier(adr);
    const blocked = await value({ content: "I think ADR-003 says we use PostgreSQL" }, { verifier: quiet });
    expect(blocked.tier).toBe("block");
    expect(quiet.calls).toEqual([]);
  });

  it("one fabricated citation among verified ones prevents approval", async () => {
    const result = await value({ content: "Per ADR-003 and ADR-999, we use PostgreSQL" });
    expect(result.reason).toBe("Citation detected but not verified: ADR-999");
  });

  it("sends the claim without its citation to the relevance check", async () => {
    const seen: [string, string][] = [];
    const support = Layer.succeed(ClaimSupportChecker, {
      check: (claim: string, artifact: string) =>
        Effect.sync(() => {
          seen.push([claim, artifact]);
          return { supported: true, score: 1, reason: "ok" };
        }),
    });
    await value({ content: "Per ADR-003, we use PostgreSQL" }, { support });
    expect(seen).toEqual([[", we use PostgreSQL", adr["ADR-003"]]]);
  });

  it("a relevance checker outage reviews the claim", async () => {
    const support = Layer.succeed(ClaimSupportChecker, {
      check: () => Effect.fail(new VerificationError({ message: "nli model unavailable", layer: "nli" })),
    });
    const result = await value({ content: "Per ADR-003, we use PostgreSQL" }, { support });
    expect(result).toMatchObject({
      tier: "flag-review",
      reason: "Citation relevance could not be checked: ADR-003",
    });
  });

  it("verifyClaimRelevance: false approves a verified citation without reading it", async () => {
    const result = await value(
      { content: "Per ADR-003, we use MongoDB for caching" },
      { config: { verifyClaimRelevance: false } },
    );
    expect(result.tier).toBe("auto-approve");
  });

  it("autoApproveAiSynthesis is false by default and can be turned on", async () => {
    expect((await value({ content: "The API returns JSON" })).tier).toBe("flag-review");
    const on = await value({ content: "The API returns JSON" }, { config: { autoApproveAiSynthesis: true } });
    expect(on.tier).toBe("auto-approve");
  });

  it("builds the evidence object: capture time, confidence, source id, validity horizon, metadata", async () => {
    const validUntil = new Date("2030-01-01T00:00:00Z");
    const result = await value({
      content: "OAuth2 is required",
      source: "documentation",
      validUntil: validUntil.toISOString(),
      metadata: { ticket: "SEC-1" },
    });
    expect(result.evidence).toMatchObject({
      claim: "OAuth2 is required",
      confidence: "high",
      sourceId: "source:documentation",
      validityHorizon: validUntil,
      metadata: { source: "documentation", memoryType: "fact", ticket: "SEC-1" },
    });
    expect(result.evidence.captureTime).toBeInstanceOf(Date);
  });

  it("a claim's metadata cannot overwrite the provenance the gate records", async () => {
    const result = await value({
      content: "OAuth2 is required",
      source: "ai_synthesis",
      metadata: { source: "documentation", memoryType: "decision", reviewedBy: "admin", ticket: "SEC-2" },
    });
    expect(result.evidence.metadata).toEqual({ source: "ai_synthesis", memoryType: "fact", ticket: "SEC-2" });
  });

  it("accepts the validity horizon as a Date as well as a string", async () => {
    const validUntil = new Date("2031-05-01T00:00:00Z");
    const result = await value({ content: "OAuth2 is required", source: "user", validUntil });
    expect(result.evidence.validityHorizon).toEqual(validUntil);
  });

  it("a default validity applies when the claim has none", async () => {
    const result = await value(
      { content: "OAuth2 is required", source: "user" },
      { config: { defaultValidityMs: 60_000 } },
    );
    expect(result.evidence.validityHorizon!.getTime() - result.evidence.captureTime.getTime()).toBe(60_000);
  });
});
