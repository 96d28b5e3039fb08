/**
 * The specification's service tests, run through the lead's verification service with the five model
 * layers over a scripted model whose answers are given here. Asserts on what was sent, not only verdicts.
 */
import { Effect, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { type RecordedGenerateCall, ScriptedFailure, scriptedLLM } from "../testing/scripted-model.js";
import { makeVerificationAppLayer } from "../verification/app-layer.js";
import { VerificationService } from "../verification/service.js";
import { EmptyFactualMemory } from "./factual-memory.js";
import { makeModelLayers } from "./index.js";
import { ModelRiskModelLive } from "./risk-model.js";

/** Claim texts of a prompt's numbered list. */
const claimsIn = (call: RecordedGenerateCall) =>
  [...call.prompt.matchAll(/^\[(\d+)\] (.*)$/gm)].map((match) => match[2] ?? "");

/** A model that believes every claim it is shown. */
const believer = (call: RecordedGenerateCall): object => {
  const claims = claimsIn(call);
  switch (call.schemaName) {
    case "statements":
      return { answers: claims.map((statement, claim) => ({ claim, statement })) };
    case "atomic_facts":
      return { facts: claims.map((fact, claim) => ({ claim, fact, type: "factual" })) };
    case "fact_checks":
      return { verdicts: claims.map((_, fact) => ({ fact, verdict: "supported", reason: "known" })) };
    case "source_verdict":
      return {
        claims: claims.map((_, claim) => ({ claim, relation: "supports", confidence: 0.95, quote: "" })),
      };
    case "consistency_check":
      return {
        claims: claims.map((_, claim) => ({ claim, agrees: true, confidence: 0.95, reasoning: "known" })),
      };
    case "nli":
      return {
        claims: claims.map((_, claim) => ({
          claim,
          relationship: "entailment",
          confidence: 0.95,
          explanation: "ok",
        })),
      };
    default:
      return { level: "medium", factors: [], reasoning: "default" };
  }
};

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

const appWith = (respond: (call: RecordedGenerateCall, index: number) => object | ScriptedFailure) => {
  const { model, layer: llm } = scriptedLLM(
    { script: { respond } },
    { retry: { baseDelayMs: 1, maxDelayMs: 5 } },
  );
  const dependencies = Layer.merge(llm, EmptyFactualMemory);
  const app = Layer.unwrapEffect(
    Effect.map(makeModelLayers(), (layers) => makeVerificationAppLayer({ layers: Object.values(layers) })),
  ).pipe(Layer.provide(ModelRiskModelLive), Layer.provide(dependencies));
  const run = <A, E>(program: Effect.Effect<A, E, VerificationService>) =>
    Effect.runPromise(program.pipe(Effect.provide(app)));
  return { model, run };
};

describe("the specification's tests with the model layers", () => {
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
    const purposes = new Set(model.generateCalls().map((call) => call.purpose));
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
    const { run } = appWith(believer);
    const result = await run(
      Effect.flatMap(VerificationService, (service) =>
        service.verify({
          text: "Take 500mg of ibuprofen every 2 hours for chest pain.",
          riskOverride: "critical",
          context: "Patient asked about pain relief.",
          sources: [
            "Ibuprofen label: 200-400mg every 4-6 hours.",
            "Chest pain needs urgent medical attention.",
          ],
        }),
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
