import { Effect, Either, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { type RecordedGenerateCall, scriptedLLM } from "../../../testing/scripted-model.js";
import { InMemoryFactualMemory } from "../factual-memory.js";
import { layerInputOf } from "../shared/layer-input.js";
import { makeFactDecompositionLayer } from "./index.js";

const eiffel = "The Eiffel Tower was built in 1823 by Leonardo da Vinci.";
const eiffelFacts = {
  facts: [
    { claim: 0, fact: "The Eiffel Tower was built in 1823.", type: "factual" },
    { claim: 0, fact: "The Eiffel Tower was built by Leonardo da Vinci.", type: "factual" },
  ],
};

const runLayer = (
  respond: (call: RecordedGenerateCall, index: number) => object,
  text: string,
  memory: readonly string[] = [],
) => {
  const { model, layer } = scriptedLLM({ script: { respond } });
  const result = Effect.runPromise(
    Effect.either(
      Effect.flatMap(makeFactDecompositionLayer(), (check) => check.run(layerInputOf(text))).pipe(
        Effect.provide(Layer.merge(layer, InMemoryFactualMemory(memory))),
      ),
    ),
  );
  return { model, result };
};

describe("fact-decomposition layer", () => {
  it("fails a fabricated claim: facts missing from memory are checked in one batched call", async () => {
    const { model, result } = runLayer(
      (call) =>
        call.purpose === "fact-decomposition.decompose"
          ? eiffelFacts
          : {
              verdicts: [
                { fact: 0, verdict: "contradicted", reason: "It was completed in 1889." },
                { fact: 1, verdict: "contradicted", reason: "Gustave Eiffel's company built it." },
              ],
            },
      eiffel,
      ["The Eiffel Tower was completed in 1889."],
    );
    const outcome = await result;
    const right = Either.isRight(outcome) ? outcome.right : undefined;
    expect(right).toMatchObject({ passed: false, score: 0, details: { factualClaims: 2, verifiedCount: 0 } });
    expect(right?.claims?.[0]).toMatchObject({
      verdict: "contradicted",
      span: { start: 0, end: eiffel.length },
      issues: [{ code: "fact-contradicted", layer: "fact-decomposition" }],
    });
    const [decompose, check] = model.generateCalls();
    expect(decompose?.prompt).toContain(`<claims>\n[0] ${eiffel}\n</claims>`);
    expect(decompose?.jsonSchema).toMatchObject({ required: ["facts"] });
    expect(check?.prompt).toContain("[0] The Eiffel Tower was built in 1823.");
    expect(check?.prompt).toContain("[1] The Eiffel Tower was built by Leonardo da Vinci.");
    expect(model.generateCalls()).toHaveLength(2);
  });

  it("verifies facts found in the factual memory without asking the model", async () => {
    const text = "The Eiffel Tower was completed in 1889.";
    const { model, result } = runLayer(() => ({ facts: [{ claim: 0, fact: text, type: "factual" }] }), text, [
      "The Eiffel Tower was completed in 1889.",
    ]);
    const outcome = await result;
    expect(Either.isRight(outcome) && outcome.right).toMatchObject({
      passed: true,
      score: 1,
      details: { verifiedFromMemory: 1 },
      claims: [{ verdict: "supported" }],
    });
    expect(model.generateCalls().map((call) => call.purpose)).toEqual(["fact-decomposition.decompose"]);
  });

  it("does not check opinions, and reports them as unverifiable", async () => {
    const { model, result } = runLayer(
      () => ({ facts: [{ claim: 0, fact: "Paris is lovely in spring.", type: "opinion" }] }),
      "I think Paris is lovely in spring.",
    );
    const outcome = await result;
    expect(Either.isRight(outcome) && outcome.right).toMatchObject({
      passed: true,
      claims: [{ kind: "opinion", verdict: "unverifiable" }],
    });
    expect(model.generateCalls()).toHaveLength(1);
  });

  it("counts a fact the model left without a verdict as not verified", async () => {
    const { result } = runLayer(
      (call) =>
        call.purpose === "fact-decomposition.decompose"
          ? eiffelFacts
          : { verdicts: [{ fact: 0, verdict: "supported", reason: "ok" }] },
      eiffel,
    );
    const outcome = await result;
    expect(Either.isRight(outcome) && outcome.right).toMatchObject({ passed: false, score: 0.5 });
  });

  it("fails with a typed error when the model finds no facts at all", async () => {
    const { result } = runLayer(() => ({ facts: [] }), eiffel);
    const outcome = await result;
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({
      _tag: "VerificationError",
      layer: "fact-decomposition",
    });
  });
});
