import { Effect, Either } from "effect";
import { describe, expect, it } from "vitest";
import { type RecordedGenerateCall, ScriptedFailure, scriptedLLM } from "../../../testing/scripted-model.js";
import { layerInputOf } from "../shared/layer-input.js";
import { makeSemanticEntropyLayer, type SemanticEntropyOptions } from "./index.js";

const fabricated = "The Eiffel Tower was built in 1823 by Leonardo da Vinci.";
const water = "Water boils at 100 degrees Celsius at sea level.";

/** Answers every sample with the given statements, one per claim number. */
const statements = (...texts: string[]) => ({
  answers: texts.map((statement, claim) => ({ claim, statement })),
});

const runLayer = (
  respond: (call: RecordedGenerateCall, index: number) => object,
  text: string,
  options: SemanticEntropyOptions = {},
) => {
  const { model, layer } = scriptedLLM({ script: { respond } });
  const result = Effect.runPromise(
    Effect.either(
      Effect.flatMap(makeSemanticEntropyLayer(options), (check) => check.run(layerInputOf(text))).pipe(
        Effect.provide(layer),
      ),
    ),
  );
  return { model, result };
};

describe("semantic-entropy layer", () => {
  it("passes a claim the samples restate consistently, and sends three samples then one embedding batch", async () => {
    const { model, result } = runLayer(() => statements(water), water);
    const outcome = await result;
    expect(Either.isRight(outcome) && outcome.right).toMatchObject({
      layer: "semantic-entropy",
      passed: true,
      claims: [{ verdict: "supported", span: { start: 0, end: water.length }, layers: ["semantic-entropy"] }],
    });
    const samples = model.generateCalls();
    expect(samples).toHaveLength(3);
    expect(
      samples.every((call) => call.temperature === 1 && call.purpose === "semantic-entropy.sample"),
    ).toBe(true);
    expect(samples[0]?.prompt).toContain(`<claims>\n[0] ${water}\n</claims>`);
    expect(samples[0]?.jsonSchema).toMatchObject({ required: ["answers"] });
    expect(model.embedCalls()).toEqual([{ kind: "embed", values: [water, water, water, water] }]);
  });

  it("fails a fabricated claim whose samples disagree with it and with one another", async () => {
    const answers = [
      "The Eiffel Tower was completed in 1889, designed by Gustave Eiffel's company.",
      "Gustave Eiffel's engineers built it for the 1889 World's Fair.",
      "unknown",
    ];
    const { result } = runLayer((_, index) => statements(answers[index % 3] ?? ""), fabricated);
    const outcome = await result;
    expect(Either.isRight(outcome) && outcome.right.passed).toBe(false);
    const claim = Either.isRight(outcome) ? outcome.right.claims?.[0] : undefined;
    expect(claim).toMatchObject({ verdict: "unsupported", issues: [{ code: "unstable-answer" }] });
    expect(claim?.score).toBeLessThan(0.7);
  });

  it("clusters by bidirectional entailment when asked, and takes the entropy over clusters", async () => {
    const { model, result } = runLayer(
      (call, index) =>
        call.purpose === "semantic-entropy.cluster"
          ? { claims: [{ claim: 0, clusters: [[0, 1], [2], [3]] }] }
          : statements(
              ["It was built in 1823.", "It was built in 1889.", "It was built in 1887."][index] ?? "",
            ),
      fabricated,
      { method: "entailment" },
    );
    const outcome = await result;
    const right = Either.isRight(outcome) ? outcome.right : undefined;
    expect(right?.passed).toBe(false);
    expect(right?.details.perClaim).toEqual([{ consistency: 0, support: 1 / 3, entropy: 1, score: 0 }]);
    const cluster = model.generateCalls().at(-1);
    expect(cluster?.purpose).toBe("semantic-entropy.cluster");
    expect(cluster?.prompt).toContain("(0) The Eiffel Tower was built in 1823");
    expect(cluster?.prompt).toContain("(2) It was built in 1889.");
    expect(model.embedCalls()).toHaveLength(0);
  });

  it("fails with a typed error naming the layer when the model is down, never a pass", async () => {
    const { layer } = scriptedLLM({ script: { fixed: new ScriptedFailure({ status: 401 }) } });
    const outcome = await Effect.runPromise(
      Effect.either(
        Effect.flatMap(makeSemanticEntropyLayer(), (check) => check.run(layerInputOf(water))).pipe(
          Effect.provide(layer),
        ),
      ),
    );
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({
      _tag: "VerificationError",
      layer: "semantic-entropy",
    });
  });

  it("is not ready without an embedding model (embedding method)", async () => {
    const { layer } = scriptedLLM({ script: { fixed: "" }, embed: false });
    const check = await Effect.runPromise(makeSemanticEntropyLayer().pipe(Effect.provide(layer)));
    expect(check.readiness(layerInputOf(water))).toMatchObject({ ready: false });
  });
});
