import { describe, expect, it } from "vitest";
import { detectHedges } from "../hedges/detect-hedges.js";
import type { MemoryType } from "../model.js";
import { decideTier } from "./decide-tier.js";
import { type CitationOutcome, type DuplicateOutcome, defaultTierPolicy } from "./tier-inputs.js";

const unique: DuplicateOutcome = { status: "unique" };
const verified: CitationOutcome = {
  id: "ADR-003",
  status: "verified",
  sourceId: "ADR-003",
  relevance: "supported",
};

const decide = (
  claim: string,
  options: {
    duplicate?: DuplicateOutcome;
    citations?: CitationOutcome[];
    source?: string;
    memoryType?: MemoryType;
  } = {},
  policy = defaultTierPolicy,
) =>
  decideTier(
    {
      hedges: detectHedges(claim),
      duplicate: options.duplicate ?? unique,
      citations: options.citations ?? [],
      source: options.source ?? "ai_synthesis",
      memoryType: options.memoryType ?? "fact",
    },
    policy,
  );

describe("decideTier applies its rules in order", () => {
  it("speculation blocks before anything else, even with a verified citation from a trusted source", () => {
    expect(decide("I think we use PostgreSQL", { citations: [verified], source: "user" })).toEqual({
      tier: "block",
      reason: "Contains personal speculation",
    });
  });

  it("a duplicate blocks before a technical hedge is reviewed", () => {
    expect(
      decide("It may rain", { duplicate: { status: "duplicate", similarity: 0.95, memoryId: "m" } }).tier,
    ).toBe("block");
  });

  it("a technical hedge is reviewed even with a verified citation", () => {
    expect(decide("The server may time out", { citations: [verified] }).tier).toBe("flag-review");
  });

  it("a failed dedup check is reviewed, never approved, even from a trusted source", () => {
    expect(
      decide("We use PostgreSQL", { duplicate: { status: "failed", reason: "down" }, source: "user" }),
    ).toEqual({
      tier: "flag-review",
      reason: "Dedup check failed - cannot verify uniqueness",
    });
  });

  it.each<[string, CitationOutcome, string]>([
    [
      "unverified",
      { id: "ADR-999", status: "unverified", reason: "missing" },
      "Citation detected but not verified: ADR-999",
    ],
    [
      "unchecked",
      { id: "#12", status: "check-failed", reason: "no tracker" },
      "Citation detected but not verified: #12",
    ],
    [
      "not supporting",
      { id: "ADR-003", status: "not-supporting", reason: "x" },
      "Citation verified but does not support the claim: ADR-003",
    ],
    [
      "relevance unknown",
      { id: "ADR-003", status: "relevance-failed", reason: "x" },
      "Citation relevance could not be checked: ADR-003",
    ],
  ])("a citation %s is reviewed, even from a trusted source", (_, citation, reason) => {
    expect(decide("We use PostgreSQL", { citations: [verified, citation], source: "documentation" })).toEqual(
      {
        tier: "flag-review",
        reason,
      },
    );
  });

  it("verified and supporting citations approve", () => {
    expect(decide("We use PostgreSQL", { citations: [verified] })).toEqual({
      tier: "auto-approve",
      reason: "Has verified citation",
    });
  });

  it.each(["user", "documentation", "adr", "commit", "manual"])("source %s is trusted", (source) => {
    expect(decide("We use PostgreSQL", { source }).tier).toBe("auto-approve");
  });

  it.each<[MemoryType, string, string]>([
    ["decision", "conversation", "auto-approve"],
    ["preference", "conversation", "auto-approve"],
    ["preference", "chat", "auto-approve"],
    ["decision", "chat", "flag-review"],
    ["fact", "conversation", "flag-review"],
  ])("%s from %s → %s", (memoryType, source, tier) => {
    expect(decide("We use tabs", { memoryType, source }).tier).toBe(tier);
  });

  it("AI synthesis is reviewed unless autoApproveAiSynthesis is set", () => {
    expect(decide("The API returns JSON").reason).toBe("AI synthesis without a verified citation");
    expect(
      decide("The API returns JSON", {}, { ...defaultTierPolicy, autoApproveAiSynthesis: true }).tier,
    ).toBe("auto-approve");
  });

  it("AI synthesis is not approved by listing it as a trusted source", () => {
    const policy = { ...defaultTierPolicy, trustedSources: new Set(["ai_synthesis"]) };
    expect(decide("The API returns JSON", {}, policy).tier).toBe("flag-review");
  });

  it("trusted sources are configurable", () => {
    const policy = { ...defaultTierPolicy, trustedSources: new Set(["wiki"]) };
    expect(decide("We use PostgreSQL", { source: "wiki" }, policy).tier).toBe("auto-approve");
    expect(decide("We use PostgreSQL", { source: "user" }, policy).tier).toBe("flag-review");
  });
});
