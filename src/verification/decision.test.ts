import { describe, expect, it } from "vitest";
import type { LayerResult } from "../model/layer-result.js";
import { RiskProfiles } from "../model/risk.js";
import { decide } from "./decision.js";

const layer = (name: LayerResult["layer"], passed: boolean, score: number): LayerResult => ({
  layer: name,
  passed,
  score,
  latencyMs: 1,
  details: {},
});

describe("decide", () => {
  const base = { skipped: [], errored: [], profile: RiskProfiles.medium, strict: false };

  it("passes when every layer passed and the lowest score reaches minConfidence", () => {
    const decision = decide({ ...base, layers: [layer("grounding", true, 0.95), layer("nli", true, 0.85)] });
    expect(decision).toEqual({ passed: true, overallConfidence: 0.85, reasons: [] });
  });

  it("takes the lowest score, so one weak layer is not averaged away", () => {
    const decision = decide({ ...base, layers: [layer("grounding", true, 1), layer("nli", true, 0.5)] });
    expect(decision.overallConfidence).toBe(0.5);
    expect(decision.passed).toBe(false);
  });

  it("fails when a layer failed even with high confidence", () => {
    expect(decide({ ...base, layers: [layer("grounding", false, 0.99)] }).passed).toBe(false);
  });

  it("fails with no layers, with confidence 0", () => {
    expect(decide({ ...base, layers: [] })).toMatchObject({ passed: false, overallConfidence: 0 });
  });

  it("fails when a layer errored, whatever the others said", () => {
    const decision = decide({
      ...base,
      layers: [layer("grounding", true, 1)],
      errored: [{ layer: "nli", reason: "timeout", error: true }],
    });
    expect(decision.passed).toBe(false);
    expect(decision.reasons).toEqual(["layer nli could not complete: timeout"]);
  });

  it("ignores skipped layers unless strict", () => {
    const input = {
      ...base,
      layers: [layer("grounding", true, 1)],
      skipped: [{ layer: "nli" as const, reason: "no model" }],
    };
    expect(decide(input).passed).toBe(true);
    expect(decide({ ...input, strict: true }).passed).toBe(false);
  });
});
