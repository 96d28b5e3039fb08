import { Effect, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { DuplicateChecker } from "../dedup/duplicate-checker.js";
import { makeLshDuplicateChecker } from "../dedup/lsh-duplicate-checker.js";
import type { IngestionTier, MemoryType } from "../model.js";
import { ClaimSupportChecker } from "../relevance/claim-support-checker.js";
import { makeGroundingSupportChecker } from "../relevance/layer-support-checker.js";
import { FailingDuplicateCheckerLayer, FakeCitationVerifierLayer } from "../testing/fakes.js";
import { defaultMemoryGateConfig } from "./gate-config.js";
import { validateClaim } from "./validate-claim.js";

/** The cited artifacts that exist in the test repository (ADR-999 does not). */
const artifacts = {
  "ADR-003":
    "# ADR-003: Storage\n\nWe use PostgreSQL for application data. We use Pixeltable for memory storage.",
  a1b2c3d4e5f60718293a4b5c6d7e8f9012345678: "Fix the race in review approval",
  "https://docs.example.com/api": "<h1>API reference</h1>",
};

const stored = { id: "mem-456", userId: "user-123", content: "Per ADR-003, we use PostgreSQL" };

const validate = (
  content: string,
  source: string,
  memoryType: MemoryType,
  dedup: "working" | "failing" | "empty" = "working",
) => {
  const checker = makeLshDuplicateChecker();
  const dedupLayer =
    dedup === "failing"
      ? FailingDuplicateCheckerLayer
      : dedup === "empty"
        ? Layer.succeed(DuplicateChecker, checker)
        : Layer.effect(DuplicateChecker, Effect.as(checker.remember(stored), checker));
  const layers = Layer.mergeAll(
    dedupLayer,
    FakeCitationVerifierLayer(artifacts),
    Layer.succeed(ClaimSupportChecker, makeGroundingSupportChecker()),
  );
  return Effect.runPromise(
    validateClaim({ content, source, memoryType, userId: "user-123" }, defaultMemoryGateConfig).pipe(
      Effect.map(({ result }) => result),
      Effect.provide(layers),
    ),
  );
};

type Example = [
  claim: string,
  source: string,
  memoryType: MemoryType,
  tier: IngestionTier,
  reason: string,
  store?: "empty",
];

// Example claims grouped by the tier they must get, each with the reason it must give. The duplicate example
// is checked in a user store that already holds "Per ADR-003, we use PostgreSQL"; the others in the same
// store (they differ from it), except the same claim as an always-accepted example, which is checked in an
// empty store, where it duplicates nothing.
const alwaysBlocked: Example[] = [
  ["I think we should use Redis", "conversation", "fact", "block", "Contains personal speculation"],
  ["I guess the API supports this", "ai_synthesis", "fact", "block", "Contains personal speculation"],
  ["Maybe we could try GraphQL", "conversation", "decision", "block", "Contains personal speculation"],
  ["Per ADR-003, we use PostgreSQL", "conversation", "decision", "block", "Duplicate of existing memory"],
  ["I think we should use Redis, definitely", "user", "decision", "block", "Contains personal speculation"],
];

const alwaysAccepted: Example[] = [
  [
    "Per ADR-003, we use PostgreSQL",
    "conversation",
    "decision",
    "auto-approve",
    "Has verified citation",
    "empty",
  ],
  [
    "Per ADR-003, we use Pixeltable for memory storage",
    "ai_synthesis",
    "fact",
    "auto-approve",
    "Has verified citation",
  ],
  ["Fixed in commit a1b2c3d4e5", "ai_synthesis", "fact", "auto-approve", "Has verified citation"],
  ["See https://docs.example.com/api", "ai_synthesis", "fact", "auto-approve", "Has verified citation"],
  ["I prefer tabs over spaces", "user", "preference", "auto-approve", "From trusted source: user"],
  ["OAuth2 is required", "documentation", "fact", "auto-approve", "From trusted source: documentation"],
  [
    "We decided to use PostgreSQL",
    "conversation",
    "decision",
    "auto-approve",
    "Decision stated in conversation",
  ],
];

const flaggedForReview: Example[] = [
  [
    "The server may timeout under load",
    "documentation",
    "fact",
    "flag-review",
    "Contains technical hedges - needs verification",
  ],
  [
    "Connections typically complete in <100ms",
    "documentation",
    "fact",
    "flag-review",
    "Contains technical hedges - needs verification",
  ],
  [
    "The API returns JSON for REST responses",
    "ai_synthesis",
    "fact",
    "flag-review",
    "AI synthesis without a verified citation",
  ],
  [
    "OAuth2 is the authentication mechanism",
    "ai_synthesis",
    "fact",
    "flag-review",
    "AI synthesis without a verified citation",
  ],
  [
    "The service uses PostgreSQL 15",
    "conversation",
    "fact",
    "flag-review",
    "Ungrounded assertion needs verification",
  ],
  [
    "Per ADR-999, we use magic",
    "ai_synthesis",
    "fact",
    "flag-review",
    "Citation detected but not verified: ADR-999",
  ],
];

const falsePositivesAndBypasses: Example[] = [
  [
    "The release shipped in May 2024",
    "documentation",
    "fact",
    "auto-approve",
    "From trusted source: documentation",
  ],
  [
    "The migration couldn't complete because the disk was full",
    "documentation",
    "fact",
    "auto-approve",
    "From trusted source: documentation",
  ],
  [
    "The retry count should be 5",
    "documentation",
    "fact",
    "auto-approve",
    "From trusted source: documentation",
  ],
  [
    "I certainly think the retry count is 5, definitely",
    "user",
    "fact",
    "block",
    "Contains personal speculation",
  ],
  ["Per ADR-003, I guess we use PostgreSQL", "adr", "decision", "block", "Contains personal speculation"],
];

describe("the tier and reason of each example claim", () => {
  it.each([...alwaysBlocked, ...alwaysAccepted, ...flaggedForReview, ...falsePositivesAndBypasses])(
    "%s (source=%s, type=%s) → %s",
    async (claim, source, memoryType, tier, reason, store) => {
      const result = await validate(claim, source, memoryType, store === "empty" ? "empty" : "working");
      expect({ tier: result.tier, reason: result.reason }).toEqual({ tier, reason });
      expect(result.approved).toBe(tier === "auto-approve");
    },
  );

  it("the duplicate carries its similarity and the id it duplicates", async () => {
    const result = await validate("Per ADR-003, we use PostgreSQL", "conversation", "decision");
    expect(result).toMatchObject({ similarityScore: 1, conflictingMemoryId: "mem-456" });
    expect(result.checksFailed).toContain("duplicate_of: mem-456 (similarity 1.000)");
  });

  it("dedup check failed: content that would otherwise approve is reviewed", async () => {
    const result = await validate("We decided to use PostgreSQL", "conversation", "decision", "failing");
    expect(result).toMatchObject({
      tier: "flag-review",
      reason: "Dedup check failed - cannot verify uniqueness",
      approved: false,
    });
    expect(result.checksFailed).toContain("dedup_check_failed: memory provider unavailable");
  });

  it("correct citation, wrong claim: a verified ADR that says something else is reviewed", async () => {
    const result = await validate("Per ADR-003, we use MongoDB for session caching", "ai_synthesis", "fact");
    expect(result.tier).toBe("flag-review");
    expect(result.reason).toBe("Citation verified but does not support the claim: ADR-003");
    expect(result.checksPassed).toContain("citation_verified: ADR-003");
  });

  it("lists passed and failed checks as snake_case labels with their detail", async () => {
    const result = await validate("Maybe we could try GraphQL", "conversation", "fact");
    expect(result.checksFailed).toContain("hedge_words_detected: Maybe we could");
    const approved = await validate(
      "Per ADR-003, we use Pixeltable for memory storage",
      "ai_synthesis",
      "fact",
    );
    expect(approved.checksPassed).toEqual(
      expect.arrayContaining([
        "no_speculation",
        "not_duplicate",
        "citation_present",
        "citation_verified: ADR-003",
      ]),
    );
    expect(approved.evidence).toMatchObject({ confidence: "high", sourceId: "ADR-003" });
  });
});
