import { Effect, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { makeGroundingLayer } from "../checks/grounding/index.js";
import { VerificationError } from "../model/errors.js";
import { notReady, ready, type VerificationLayer } from "../model/layer.js";
import type { LayerName } from "../model/layer-name.js";
import type { LayerResult } from "../model/layer-result.js";
import { makeVerificationAppLayer } from "./app-layer.js";
import type { VerificationSettings } from "./config.js";
import { EventBus, type VerificationEvent } from "./events.js";
import { RiskModel } from "./risk-assessor.js";
import { VerificationService } from "./service.js";

/** A layer with a fixed verdict that records how often it ran. */
const scriptedLayer = (
  name: LayerName,
  outcome: { passed: boolean; score: number } | "error" | "hang" | "not-ready",
  kind: "evidence" | "model" = "model",
): VerificationLayer & { runs: number } => {
  const layer = {
    name,
    kind,
    runs: 0,
    readiness: () => (outcome === "not-ready" ? notReady("no context to check against") : ready),
    run: () => {
      layer.runs++;
      if (outcome === "error")
        return Effect.fail(new VerificationError({ message: "provider returned 500", layer: name }));
      if (outcome === "hang") return Effect.never;
      if (outcome === "not-ready") return Effect.die("must not run");
      const result: LayerResult = {
        layer: name,
        passed: outcome.passed,
        score: outcome.score,
        latencyMs: 1,
        details: {},
      };
      return Effect.succeed(result);
    },
  };
  return layer;
};

const verifyWith = (
  layers: readonly VerificationLayer[],
  request: Parameters<import("./service.js").VerificationServiceShape["verify"]>[0],
  settings: Partial<VerificationSettings> = {},
) =>
  Effect.runPromise(
    Effect.flatMap(VerificationService, (service) => service.verify(request)).pipe(
      Effect.provide(makeVerificationAppLayer({ layers, settings })),
    ),
  );

const sources = ["The Eiffel Tower in Paris was completed in 1889. It is 330 metres tall."];

describe("VerificationService", () => {
  it("runs the offline grounding layer whenever sources are given, at every risk level", async () => {
    for (const riskOverride of ["low", "medium", "high", "critical"] as const) {
      const result = await verifyWith([makeGroundingLayer()], {
        text: "The Eiffel Tower was completed in 1889.",
        sources,
        riskOverride,
      });
      expect(result.layersRun.map((layer) => layer.layer)).toEqual(["grounding"]);
      expect(result.riskLevel).toBe(riskOverride);
    }
  });

  it("lists model layers of the profile as skipped with the reason when no model is configured", async () => {
    const result = await verifyWith([makeGroundingLayer()], {
      text: "The Eiffel Tower was completed in 1889.",
      sources,
      riskOverride: "critical",
    });
    expect(result.skippedLayers.map((skipped) => skipped.layer)).toEqual([
      "semantic-entropy",
      "fact-decomposition",
      "multi-source",
      "self-consistency",
      "nli",
    ]);
    expect(result.skippedLayers[0]?.reason).toMatch(/no model configured/);
  });

  it("does not pass when no layer could run", async () => {
    const result = await verifyWith([makeGroundingLayer()], {
      text: "The tower is tall.",
      riskOverride: "low",
    });
    expect(result.layersRun).toEqual([]);
    expect(result.passed).toBe(false);
    expect(result.overallConfidence).toBe(0);
    expect(result.reasons).toContain("no verification layer could run");
    expect(result.mitigations[0]?.action).toBe("request-sources");
    expect(result.claims.every((claim) => claim.verdict === "unverifiable")).toBe(true);
  });

  it("never counts a skipped layer as passed: the decision uses only the layers that ran", async () => {
    const failing = scriptedLayer("semantic-entropy", { passed: false, score: 0.3 });
    const skipped = scriptedLayer("fact-decomposition", "not-ready");
    const result = await verifyWith([failing, skipped], { text: "Some text here.", riskOverride: "medium" });
    expect(skipped.runs).toBe(0);
    expect(result.layersRun.map((layer) => layer.layer)).toEqual(["semantic-entropy"]);
    expect(result.skippedLayers).toEqual([
      { layer: "fact-decomposition", reason: "no context to check against" },
    ]);
    expect(result.passed).toBe(false);
  });

  it("passes with a skipped layer only outside strict mode", async () => {
    const passing = scriptedLayer("semantic-entropy", { passed: true, score: 1 });
    const skipped = scriptedLayer("fact-decomposition", "not-ready");
    const request = { text: "Some text here.", riskOverride: "medium" } as const;
    expect((await verifyWith([passing, skipped], request)).passed).toBe(true);
    const strict = await verifyWith([passing, skipped], { ...request, strict: true });
    expect(strict.passed).toBe(false);
    expect(strict.reasons.join(" ")).toMatch(/strict: layer fact-decomposition was skipped/);
    expect((await verifyWith([passing, skipped], request, { strict: true })).passed).toBe(false);
  });

  it("fails closed when a layer errors: reported with the reason, never a pass", async () => {
    const passing = scriptedLayer("semantic-entropy", { passed: true, score: 1 });
    const broken = scriptedLayer("fact-decomposition", "error");
    const result = await verifyWith([passing, broken], { text: "Some text here.", riskOverride: "medium" });
    expect(result.passed).toBe(false);
    expect(result.skippedLayers).toEqual([
      { layer: "fact-decomposition", reason: "provider returned 500", error: true },
    ]);
  });

  it("fails closed when a layer times out", async () => {
    const passing = scriptedLayer("semantic-entropy", { passed: true, score: 1 });
    const hanging = scriptedLayer("fact-decomposition", "hang");
    const result = await verifyWith(
      [passing, hanging],
      { text: "Some text here.", riskOverride: "medium" },
      { layerTimeouts: { "fact-decomposition": 20 } },
    );
    expect(result.passed).toBe(false);
    expect(result.skippedLayers[0]?.reason).toMatch(/did not finish within 20 ms/);
  });

  it("lets a layer revise its result against the others' before calibration, and keeps it when the revision throws", async () => {
    const seen: string[][] = [];
    const revising = (name: LayerName, revise: (own: LayerResult) => LayerResult): VerificationLayer => ({
      ...scriptedLayer(name, { passed: false, score: 0.2 }, "evidence"),
      reconcile: (_input, own, others) => {
        seen.push(others.map((other) => other.layer));
        return revise(own);
      },
    });
    const revised = await verifyWith(
      [
        revising("grounding", (own) => ({ ...own, passed: true, score: 0.9 })),
        scriptedLayer("numbers", { passed: true, score: 1 }, "evidence"),
      ],
      { text: "The Eiffel Tower was completed in 1889.", sources, riskOverride: "low" },
    );
    expect(seen).toEqual([["numbers"]]);
    const grounding = revised.layersRun.find((layer) => layer.layer === "grounding");
    expect(grounding).toMatchObject({ passed: true, score: 0.9, details: { rawScore: 0.9 } });
    // The scripted layers judge no claim, so the answer is unverified; what matters is no layer failed.
    expect(revised.reasons).toEqual(["no claim could be checked against evidence"]);

    const throwing = await verifyWith(
      [
        revising("grounding", () => {
          throw new Error("revision bug");
        }),
        scriptedLayer("numbers", { passed: true, score: 1 }, "evidence"),
      ],
      { text: "The Eiffel Tower was completed in 1889.", sources, riskOverride: "low" },
    );
    expect(throwing.layersRun.find((layer) => layer.layer === "grounding")).toMatchObject({
      passed: false,
      score: 0.2,
    });
    expect(throwing.passed).toBe(false);
    expect(throwing.reasons).toContain("layer grounding failed");
  });

  it("requires the profile's minimum confidence", async () => {
    const lukewarm = scriptedLayer("semantic-entropy", { passed: true, score: 0.5 });
    const result = await verifyWith([lukewarm], { text: "Some text here.", riskOverride: "low" });
    // Platt defaults for semantic-entropy: 1 / (1 + exp(-2.5 * 0.5 + 0.5)) = 0.679 < 0.7 (low profile).
    expect(result.overallConfidence).toBeCloseTo(0.679, 3);
    expect(result.passed).toBe(false);
  });

  it("runs exactly the requested layers when a list is given", async () => {
    const entropy = scriptedLayer("semantic-entropy", { passed: true, score: 1 });
    const result = await verifyWith([makeGroundingLayer(), entropy], {
      text: "The Eiffel Tower was completed in 1889.",
      sources,
      riskOverride: "low",
      layers: ["grounding"],
    });
    expect(entropy.runs).toBe(0);
    expect(result.layersRun.map((layer) => layer.layer)).toEqual(["grounding"]);
  });

  it("refuses text over the size limit with a typed error", async () => {
    await expect(
      verifyWith([makeGroundingLayer()], { text: "x".repeat(101) }, { maxTextLength: 100 }),
    ).rejects.toThrow(/limit is 100/);
  });

  it("publishes events, and a failing subscriber does not break verification", async () => {
    const seen: VerificationEvent["type"][] = [];
    const program = Effect.gen(function* () {
      const bus = yield* EventBus;
      bus.subscribe(() => {
        throw new Error("subscriber bug");
      });
      bus.subscribe((event) => {
        seen.push(event.type);
      });
      const service = yield* VerificationService;
      return yield* service.verify({
        text: "It was designed by Leonardo da Vinci.",
        sources,
        riskOverride: "low",
      });
    });
    const result = await Effect.runPromise(
      program.pipe(Effect.provide(makeVerificationAppLayer({ layers: [makeGroundingLayer()] }))),
    );
    expect(result.passed).toBe(false);
    expect(seen).toEqual(["verification.completed", "verification.mitigation-applied"]);
  });

  it("asks the risk model only when the heuristics cannot decide", async () => {
    const asked: string[] = [];
    const riskModel = Layer.succeed(RiskModel, {
      classify: (text) =>
        Effect.sync(() => {
          asked.push(text);
          return "high" as const;
        }),
    });
    const program = Effect.gen(function* () {
      const service = yield* VerificationService;
      return [
        yield* service.assessRisk("Hello, how are you?"),
        yield* service.assessRisk("What dosage of aspirin should I take?"),
        yield* service.assessRisk(
          "The quarterly report lists 14 customers and a plant opened in August in Finland.",
        ),
      ];
    });
    const levels = await Effect.runPromise(
      program.pipe(Effect.provide(makeVerificationAppLayer({ layers: [] }).pipe(Layer.provide(riskModel)))),
    );
    expect(levels).toEqual(["low", "critical", "high"]);
    expect(asked).toHaveLength(1);
  });
});
