import { describe, expect, it } from "vitest";
import { main as plainAsyncApi } from "../examples/plain-async-api.js";

describe("the plain async API (examples/plain-async-api.ts, docs/API.md)", () => {
  it("reaches verification, mitigation, calibration, the correction loop, the answer validator and the scorer", async () => {
    const outcome = await plainAsyncApi();
    expect(outcome.passed).toBe(false);
    expect(outcome.mitigation).toBe("block-response");
    // Platt scaling with a = -4, b = 2: 1 / (1 + exp(-4 * 0.9 + 2)).
    expect(outcome.calibrated).toBeCloseTo(1 / (1 + Math.exp(-1.6)), 12);
    // After updateCalibration with a = -5, b = 2.5: 1 / (1 + exp(-5 * 0.9 + 2.5)).
    expect(outcome.recalibrated).toBeCloseTo(1 / (1 + Math.exp(-2)), 12);
    expect(outcome.correction).toEqual({
      outcome: "corrected",
      iterations: 2,
      text: "Northwind opened its second assembly plant in Tampere, Finland, in August 2023.",
    });
    expect(outcome.golden).toEqual({ valid: true, reason: expect.stringMatching(/source verified/) });
    expect(outcome.reportConfidence).toBeGreaterThan(0.9);
  });

  it("exports the report schemas, the scorer, the citation verifiers and the answer validator by package name", async () => {
    const root = await import("veracity");
    const citations = await import("veracity/citations");
    const evaluation = await import("veracity/eval");
    expect(typeof root.correctAnswer).toBe("function");
    const verifier = root.createVerifier();
    expect(typeof verifier.mitigate).toBe("function");
    expect(typeof verifier.calibrateConfidence).toBe("function");
    await verifier.close();
    for (const name of ["AnalysisReport", "Finding", "Citation", "decodeAnalysisReport"])
      expect(citations).toHaveProperty(name);
    for (const name of [
      "scoreFinding",
      "scoreReport",
      "makeJsonRpcVerifier",
      "makeStoreVerifier",
      "makeUrlVerifier",
    ])
      expect(typeof (citations as Record<string, unknown>)[name]).toBe("function");
    for (const name of ["validateAnswer", "runGoldenSet", "loadGoldenSet", "runEvaluation", "buildReport"])
      expect(typeof (evaluation as Record<string, unknown>)[name]).toBe("function");
  });

  it("rejects with the model's own error when the correction loop's model fails (never a pass)", async () => {
    const { correctAnswer, createVerifier } = await import("../src/index.js");
    const verifier = createVerifier();
    const outage = new Error("provider down");
    try {
      await expect(
        correctAnswer(
          { prompt: "Anything?", sources: ["A source."] },
          {
            generate: () => Promise.reject(outage),
            verify: verifier.verify,
          },
        ),
      ).rejects.toBe(outage);
    } finally {
      await verifier.close();
    }
  });
});
