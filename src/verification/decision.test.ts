import { describe, expect, it } from "vitest";
import type { ClaimFinding, ClaimSignals } from "../model/claim.js";
import type { LayerResult } from "../model/layer-result.js";
import { RiskProfiles } from "../model/risk.js";
import { type DecisionInput, decide } from "./decision.js";

const layer = (name: LayerResult["layer"], passed: boolean, score: number, claims?: ClaimFinding[]) => ({
  layer: name,
  passed,
  score,
  latencyMs: 1,
  details: {},
  ...(claims ? { claims } : {}),
});

const wellSupported: ClaimSignals = {
  localCoverage: 0.9,
  novelty: 0,
  bestPassageShare: 0.9,
  pairShare: 0.8,
  contentWords: 6,
};

const claim = (verdict: ClaimFinding["verdict"], signals: ClaimSignals = wellSupported): ClaimFinding => ({
  text: "The plant opened in 2019.",
  span: { start: 0, end: 25 },
  kind: "factual",
  verdict,
  score: verdict === "supported" ? 0.9 : 0.3,
  evidence: [],
  issues: [],
  layers: ["grounding"],
  signals,
});

const base: DecisionInput = {
  layers: [layer("grounding", true, 0.9)],
  skipped: [],
  errored: [],
  riskLevel: "medium",
  profile: RiskProfiles.medium,
  strict: false,
  claims: [claim("supported")],
  hallucinationScore: 0.1,
  combiner: { failThreshold: 0.9, warnThreshold: 0.6 },
};

describe("decide", () => {
  it("passes an answer whose checked claims all hold, with confidence 1 - the combined score", () => {
    expect(decide(base)).toEqual({ verdict: "pass", passed: true, overallConfidence: 0.9, reasons: [] });
  });

  it("fails an answer with a contradicted claim, at every risk level", () => {
    for (const riskLevel of ["low", "medium", "high", "critical"] as const) {
      const decision = decide({ ...base, riskLevel, claims: [claim("supported"), claim("contradicted")] });
      expect(decision.verdict).toBe("fail");
      expect(decision.reasons).toContain("1 claim contradicted by the sources");
    }
  });

  it("warns, and still passes, when a claim is unsupported but partly covered", () => {
    const partly = { ...wellSupported, localCoverage: 0.4, bestPassageShare: 0.5 };
    const decision = decide({ ...base, claims: [claim("supported"), claim("unsupported", partly)] });
    expect(decision).toMatchObject({ verdict: "warn", passed: true });
  });

  it("fails a claim with no support at all: nearly none of its words near its best passages", () => {
    const absent = { ...wellSupported, localCoverage: 0.05, bestPassageShare: 0.2, novelty: 0.9 };
    const decision = decide({ ...base, claims: [claim("unsupported", absent)] });
    expect(decision.verdict).toBe("fail");
    expect(decision.reasons).toContain("1 claim with no support in the sources");
  });

  it("fails an unsupported claim at critical risk, where it only warns at medium", () => {
    const partly = { ...wellSupported, localCoverage: 0.4 };
    const input = { ...base, claims: [claim("unsupported", partly)] };
    expect(decide(input).verdict).toBe("warn");
    expect(decide({ ...input, riskLevel: "critical", profile: RiskProfiles.critical }).verdict).toBe("fail");
  });

  it("fails when the combined score reaches the fail threshold, except at low risk", () => {
    expect(decide({ ...base, hallucinationScore: 0.95 }).verdict).toBe("fail");
    expect(
      decide({ ...base, hallucinationScore: 0.95, riskLevel: "low", profile: RiskProfiles.low }).verdict,
    ).toBe("warn");
    expect(decide({ ...base, hallucinationScore: 0.7 }).verdict).toBe("warn");
  });

  it("is unverified, never a pass, when no claim could be checked; strict makes it fail", () => {
    const input = { ...base, claims: [claim("unverifiable")], hallucinationScore: undefined };
    expect(decide(input)).toMatchObject({ verdict: "unverified", passed: false, overallConfidence: 0 });
    expect(decide({ ...input, strict: true })).toMatchObject({ verdict: "fail", passed: false });
    expect(decide({ ...input, layers: [] })).toMatchObject({
      verdict: "unverified",
      reasons: ["no verification layer could run"],
    });
  });

  it("fails when a layer errored, whatever the claims say", () => {
    const decision = decide({ ...base, errored: [{ layer: "nli", reason: "timeout", error: true }] });
    expect(decision.verdict).toBe("fail");
    expect(decision.reasons).toEqual(["layer nli could not complete: timeout"]);
  });

  it("fails when a model-backed layer failed or scored below the profile's minimum", () => {
    expect(decide({ ...base, layers: [...base.layers, layer("nli", false, 0.95)] }).verdict).toBe("fail");
    const low = decide({ ...base, layers: [...base.layers, layer("nli", true, 0.5)] });
    expect(low.verdict).toBe("fail");
    expect(low.overallConfidence).toBe(0.5);
  });

  it("fails when an evidence layer failed without naming a failing claim (fail closed)", () => {
    expect(decide({ ...base, layers: [...base.layers, layer("citations", false, 0)] }).verdict).toBe("fail");
    const withClaim = layer("grounding", false, 0.3, [
      claim("unsupported", { ...wellSupported, localCoverage: 0.4 }),
    ]);
    expect(decide({ ...base, layers: [withClaim], claims: withClaim.claims ?? [] }).verdict).toBe("warn");
  });

  it("ignores skipped layers unless strict", () => {
    const input = { ...base, skipped: [{ layer: "nli" as const, reason: "no model" }] };
    expect(decide(input).verdict).toBe("pass");
    expect(decide({ ...input, strict: true }).verdict).toBe("fail");
  });
});

describe("a claim that is nothing but untraced figures", () => {
  const figureClaim = (text: string, figure: string, code = "ORPHAN_NUMBER"): ClaimFinding => {
    const start = text.indexOf(figure);
    return {
      text,
      span: { start: 100, end: 100 + text.length },
      kind: "factual",
      verdict: "unsupported",
      score: 0,
      evidence: [],
      issues: [
        {
          code,
          message: `${figure} traces to nothing`,
          span: { start: 100 + start, end: 100 + start + figure.length },
          layer: "numbers",
        },
      ],
      layers: ["numbers"],
    };
  };
  const verdictOf = (finding: ClaimFinding) =>
    decide({ ...base, layers: [layer("numbers", false, 0, [finding])], claims: [finding] }).verdict;

  it("fails the answer: a bare figure, with its scale, unit or currency, asserts nothing else", () => {
    expect(verdictOf(figureClaim("-12.6 million", "-12.6"))).toBe("fail");
    expect(verdictOf(figureClaim("$ 4,310 thousand.", "4,310"))).toBe("fail");
    expect(verdictOf(figureClaim("17.5 percent", "17.5"))).toBe("fail");
    // Naming what kind of figure it is asserts nothing more.
    expect(verdictOf(figureClaim("The average was 17.5 percent.", "17.5"))).toBe("fail");
  });

  it("only warns on grounding's absent figure alone: the numbers layer may have derived it", () => {
    expect(verdictOf(figureClaim("-12.6 million", "-12.6", "NUMBER_NOT_IN_SOURCES"))).toBe("warn");
  });

  it("only warns when the claim says something else the figure is part of", () => {
    expect(verdictOf(figureClaim("Revenue grew to 12.6 million in the year.", "12.6"))).toBe("warn");
  });

  it("is no rule for figures with another kind of issue, or a supported claim", () => {
    const contradicted = {
      ...figureClaim("-12.6 million", "-12.6", "SUSPICIOUS_NUMBER"),
      verdict: "contradicted" as const,
    };
    expect(verdictOf(contradicted)).toBe("fail");
    const traced = { ...figureClaim("12.6 million", "12.6"), verdict: "supported" as const, issues: [] };
    expect(decide({ ...base, layers: [layer("numbers", true, 1, [traced])], claims: [traced] }).verdict).toBe(
      "pass",
    );
  });
});
