/**
 * End-to-end tests of the verification service with the five model layers, over a scripted model whose
 * answers are given here: the layers each risk level runs, verdicts and mitigations, risk assessment, events,
 * cost budgets and outages. Asserts on what was sent to the model, not only on verdicts.
 */
import { Effect, Layer } from "effect";
import { describe, expect, it } from "vitest";
import type { LLMCoreOptions } from "../../llm/core.js";
import { type RecordedGenerateCall, ScriptedFailure, scriptedLLM } from "../../testing/scripted-model.js";
import { makeVerificationAppLayer } from "../../verification/app-layer.js";
import { EventBus, type VerificationEvent } from "../../verification/events.js";
import { VerificationService } from "../../verification/service.js";
import { EmptyFactualMemory } from "./factual-memory.js";
import { makeModelLayers } from "./index.js";
import { ModelRiskModelLive } from "./risk-model.js";
import { believer, claimsIn } from "./testing/believer.js";

/** A model that knows the Eiffel Tower was finished in 1889 by Eiffel's company. */
const skeptic = (call: RecordedGenerateCall, index: number): object => {
  const claims = claimsIn(call);
  switch (call.schemaName) {
    case "statements":
      return {
        answers: claims.map((_, claim) => ({
          claim,
          statement:
            [
              "It was completed in 1889 by Gustave Eiffel's company.",
              "Eiffel's engineers finished it for the 1889 fair.",
              "unknown",
            ][index % 3] ?? "",
        })),
      };
    case "fact_checks":
      return {
        verdicts: claims.map((_, fact) => ({
          fact,
          verdict: "contradicted",
          reason: "Built 1887-1889 by Eiffel.",
        })),
      };
    case "consistency_check":
      return {
        claims: claims.map((_, claim) => ({
          claim,
          agrees: false,
          confidence: 0.9,
          reasoning: "Wrong date and builder.",
        })),
      };
    default:
      return believer(call);
  }
};

const appWith = (
  respond: (call: RecordedGenerateCall, index: number) => object | ScriptedFailure,
  core: LLMCoreOptions = {},
) => {
  const { model, layer: llm } = scriptedLLM(
    { script: { respond } },
    { retry: { baseDelayMs: 1, maxDelayMs: 5 }, ...core },
  );
  const dependencies = Layer.merge(llm, EmptyFactualMemory);
  const app = Layer.unwrapEffect(
    Effect.map(makeModelLayers(), (layers) => makeVerificationAppLayer({ layers: Object.values(layers) })),
  ).pipe(Layer.provide(ModelRiskModelLive), Layer.provide(dependencies));
  const run = <A, E>(program: Effect.Effect<A, E, VerificationService | EventBus>) =>
    Effect.runPromise(program.pipe(Effect.provide(app)));
  return { model, run };
};

describe("the verification service with the model layers", () => {
  it("passes low-risk factual text with one layer", async () => {
    const { model, run } = appWith(believer);
    const text = "Water boils at 100 degrees Celsius at sea level.";
    const result = await run(
      Effect.flatMap(VerificationService, (service) => service.verify({ text, riskOverride: "low" })),
    );
    expect(result.passed).toBe(true);
    expect(result.overallConfidence).toBeGreaterThan(0.7);
    expect(result.layersRun.map((layer) => layer.layer)).toEqual(["semantic-entropy"]);
    expect(model.generateCalls().every((call) => call.prompt.includes(`[0] ${text}`))).toBe(true);
    expect(model.embedCalls()).toHaveLength(1);
  });

  it("fails the Eiffel Tower fabrication at high risk with one mitigation", async () => {
    const { model, run } = appWith(skeptic);
    const text = "The Eiffel Tower was built in 1823 by Leonardo da Vinci.";
    const result = await run(
      Effect.flatMap(VerificationService, (service) => service.verify({ text, riskOverride: "high" })),
    );
    expect(result.passed).toBe(false);
    expect(result.mitigations).toHaveLength(1);
    expect(result.claims[0]).toMatchObject({ span: { start: 0, end: text.length } });
    expect(["contradicted", "unsupported"]).toContain(result.claims[0]?.verdict);
    // Without sources multi-source fails whatever the model says; the model-judged layers must fail too.
    const verdicts = Object.fromEntries(result.layersRun.map((layer) => [layer.layer, layer.passed]));
    expect(verdicts).toMatchObject({ "fact-decomposition": false, "self-consistency": false });
    expect(result.layersRun.find((layer) => layer.layer === "multi-source")?.details).toMatchObject({
      error: { _tag: "InsufficientSourcesError", required: 2, available: 0 },
    });
    const calls = model.generateCalls();
    for (const call of calls.filter((call) => call.purpose !== "fact-decomposition.check"))
      expect(call.prompt).toContain(`<claims>\n[0] ${text}\n</claims>`);
    const check = calls.find((call) => call.purpose === "fact-decomposition.check");
    expect(check?.schemaName).toBe("fact_checks");
    expect(check?.jsonSchema).toMatchObject({ required: ["verdicts"] });
    expect(check?.prompt).toContain(`[0] ${text}`);
    expect(result.mitigations[0]?.originalText).toBe(text);
    const purposes = new Set(calls.map((call) => call.purpose));
    expect(purposes).toEqual(
      new Set([
        "semantic-entropy.sample",
        "fact-decomposition.decompose",
        "fact-decomposition.check",
        "self-consistency.judge",
      ]),
    );
  });

  it("runs all five layers at critical risk (with the context NLI needs)", async () => {
    const { model, run } = appWith(believer);
    const text = "Take 500mg of ibuprofen every 2 hours for chest pain.";
    const context = "Patient asked about pain relief.";
    const sources = [
      "Ibuprofen label: 200-400mg every 4-6 hours.",
      "Chest pain needs urgent medical attention.",
    ];
    const result = await run(
      Effect.flatMap(VerificationService, (service) =>
        service.verify({ text, riskOverride: "critical", context, sources }),
      ),
    );
    expect(result.riskLevel).toBe("critical");
    expect(result.layersRun.map((layer) => layer.layer).sort()).toEqual([
      "fact-decomposition",
      "multi-source",
      "nli",
      "self-consistency",
      "semantic-entropy",
    ]);
    const calls = model.generateCalls();
    const sent = (purpose: string) => calls.filter((call) => call.purpose === purpose);
    // One multi-source call per source, each with that source and the claim inside their delimiters.
    expect(sent("multi-source.source").map((call) => call.prompt)).toEqual(
      expect.arrayContaining(
        sources.map((source) => expect.stringContaining(`<source>\n${source}\n</source>`)),
      ),
    );
    expect(sent("multi-source.source")).toHaveLength(2);
    const [nli] = sent("nli.classify");
    expect(sent("nli.classify")).toHaveLength(1);
    expect(nli?.schemaName).toBe("nli");
    expect(nli?.prompt).toContain(`<context>\n${context}\n</context>`);
    for (const source of sources) expect(nli?.prompt).toContain(source);
    expect(nli?.prompt).toContain(`<claims>\n[0] ${text}\n</claims>`);
    expect(sent("self-consistency.judge")).toHaveLength(5);
    expect(calls.every((call) => call.messages[0]?.role === "system")).toBe(true);
    expect(calls.some((call) => call.purpose === "risk")).toBe(false);
  });

  it("blocks the response when a critical failure scores 0.1, without asking the model", async () => {
    const { model, run } = appWith(believer);
    const text = "This medication cures cancer in 24 hours.";
    const mitigation = await run(
      Effect.flatMap(VerificationService, (service) =>
        service.mitigate(text, [
          { layer: "fact-decomposition", passed: false, score: 0.1, latencyMs: 100, details: {} },
        ]),
      ),
    );
    expect(mitigation.action).toBe("block-response");
    expect(mitigation.originalText).toBe(text);
    expect(mitigation.correctedText ?? "").not.toContain("cures cancer");
    expect(model.generateCalls()).toHaveLength(0);
  });

  it("assesses 'Hello, how are you?' as low and an aspirin dosage question as high or critical", async () => {
    const { model, run } = appWith(believer);
    const [greeting, dosage] = await run(
      Effect.flatMap(VerificationService, (service) =>
        Effect.all([
          service.assessRisk("Hello, how are you?"),
          service.assessRisk("What dosage of aspirin should I take?"),
        ]),
      ),
    );
    expect(greeting).toBe("low");
    expect(["high", "critical"]).toContain(dosage);
    expect(model.generateCalls()).toHaveLength(0);
  });

  it("asks the model about what the heuristics leave open, sending the text in delimiters", async () => {
    const { model, run } = appWith(() => ({ level: "high", factors: ["numbers"], reasoning: "figures" }));
    const text =
      "The company reported revenue of 4.2 billion dollars in 2023, up 12 percent from the year before, driven by cloud sales.";
    const level = await run(Effect.flatMap(VerificationService, (service) => service.assessRisk(text)));
    expect(level).toBe("high");
    expect(model.generateCalls()[0]).toMatchObject({
      purpose: "risk",
      prompt: `<text_under_test>\n${text}\n</text_under_test>`,
    });
  });

  it("publishes the completed, mitigation-applied and failed events with their payloads", async () => {
    const { run } = appWith(skeptic);
    const events: VerificationEvent[] = [];
    const text = "The Eiffel Tower was built in 1823 by Leonardo da Vinci.";
    const [result, failure] = await run(
      Effect.gen(function* () {
        const bus = yield* EventBus;
        bus.subscribe((event) => {
          events.push(event);
        });
        const service = yield* VerificationService;
        const verified = yield* service.verify({ text, riskOverride: "high" });
        const failed = yield* Effect.flip(
          service.verify({ text: "x".repeat(1_000_001), riskOverride: "high" }),
        );
        return [verified, failed] as const;
      }),
    );
    expect(events.map((event) => event.type)).toEqual([
      "verification.completed",
      "verification.mitigation-applied",
      "verification.failed",
    ]);
    expect(events[0]?.payload).toEqual({
      riskLevel: "high",
      layersRun: result.layersRun.length,
      passed: false,
      overallConfidence: result.overallConfidence,
      totalLatencyMs: result.totalLatencyMs,
      mitigationsApplied: 1,
    });
    expect(events[1]?.payload).toEqual({
      action: result.mitigations[0]?.action,
      reason: result.mitigations[0]?.reason,
      riskLevel: "high",
    });
    // The failure knows its risk level (the override) and how long it took, never a made-up zero.
    expect(events[2]?.payload).toMatchObject({ error: failure.message, riskLevel: "high" });
    const failedLatency = (events[2]?.payload as { totalLatencyMs?: number } | undefined)?.totalLatencyMs;
    expect(failedLatency).toBeGreaterThan(0);
  });

  it("skips and reports the layers the request's cost budget cannot pay for, and does not pass", async () => {
    const prices = { "scripted:model": { inputPerMillion: 1_000_000, outputPerMillion: 1_000_000 } };
    const { model, run } = appWith(believer, { prices });
    const result = await run(
      Effect.flatMap(VerificationService, (service) =>
        service.verify({
          text: "Water boils at 100 degrees Celsius at sea level.",
          riskOverride: "medium",
          maxCost: 0.001,
        }),
      ),
    );
    expect(result.passed).toBe(false);
    expect(result.layersRun).toEqual([]);
    expect(result.skippedLayers.map((layer) => layer.layer).sort()).toEqual([
      "fact-decomposition",
      "semantic-entropy",
    ]);
    for (const skipped of result.skippedLayers) expect(skipped.reason).toMatch(/over budget.*cost budget/);
    expect(model.generateCalls()).toHaveLength(0);
  });

  it("never passes when the model is down: every layer is reported with its reason", async () => {
    const { run } = appWith(() => new ScriptedFailure({ status: 503 }));
    const result = await run(
      Effect.flatMap(VerificationService, (service) =>
        service.verify({ text: "Water boils at 100 degrees Celsius at sea level.", riskOverride: "medium" }),
      ),
    );
    expect(result.passed).toBe(false);
    expect(result.layersRun).toHaveLength(0);
    expect(result.skippedLayers.map((layer) => layer.layer).sort()).toEqual([
      "fact-decomposition",
      "semantic-entropy",
    ]);
    expect(result.skippedLayers.every((layer) => layer.reason.includes("503"))).toBe(true);
  });
});
