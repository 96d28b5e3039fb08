import { Effect, Either } from "effect";
import { describe, expect, it } from "vitest";
import { scriptedLLM } from "../../../testing/scripted-model.js";
import { layerInputOf } from "../shared/layer-input.js";
import { makeNliLayer, nliScore } from "./index.js";

const text = "The Eiffel Tower was completed in 1889. It was designed by Leonardo da Vinci.";
const context =
  "The Eiffel Tower, completed in 1889, was designed by the engineering firm of Gustave Eiffel.";

const runLayer = (answer: object, input = layerInputOf(text, { context })) => {
  const { model, layer } = scriptedLLM({ script: { fixed: answer } });
  const result = Effect.runPromise(
    Effect.either(Effect.flatMap(makeNliLayer(), (check) => check.run(input)).pipe(Effect.provide(layer))),
  );
  return { model, result };
};

describe("nli layer", () => {
  it("classifies every claim against the context in one call, and fails on a contradiction", async () => {
    const { model, result } = runLayer({
      claims: [
        { claim: 0, relationship: "entailment", confidence: 0.95, explanation: "Stated in the context." },
        {
          claim: 1,
          relationship: "contradiction",
          confidence: 0.9,
          explanation: "Gustave Eiffel's firm designed it.",
        },
      ],
    });
    const outcome = await result;
    const right = Either.isRight(outcome) ? outcome.right : undefined;
    expect(right).toMatchObject({ passed: false, details: { contradictions: 1, modelCalls: 1 } });
    // The model's token use is reported with the layer (eval sums it per dataset).
    expect(right?.details.tokens).toBeGreaterThan(0);
    expect(right?.claims?.map((claim) => [claim.verdict, claim.span])).toEqual([
      ["supported", { start: 0, end: 39 }],
      ["contradicted", { start: 40, end: text.length }],
    ]);
    expect(right?.claims?.[1]?.issues[0]).toMatchObject({ code: "contradicts-context", layer: "nli" });
    expect(right?.score).toBeCloseTo((0.95 + 0.1) / 2);
    const [call] = model.generateCalls();
    expect(call?.prompt).toContain(`<context>\n${context}\n</context>`);
    expect(call?.prompt).toContain("[1] It was designed by Leonardo da Vinci.");
    expect(call?.jsonSchema).toMatchObject({ required: ["claims"] });
    expect(model.generateCalls()).toHaveLength(1);
  });

  it("does not pass a claim the model did not classify", async () => {
    const { result } = runLayer({
      claims: [{ claim: 0, relationship: "entailment", confidence: 0.9, explanation: "ok" }],
    });
    const outcome = await result;
    expect(Either.isRight(outcome) && outcome.right).toMatchObject({
      passed: false,
      details: { unjudgedClaims: 1 },
    });
  });

  it("is not ready, and refuses to run, without a context or sources", async () => {
    const input = layerInputOf(text);
    const { layer } = scriptedLLM({ script: { fixed: {} } });
    const check = await Effect.runPromise(makeNliLayer().pipe(Effect.provide(layer)));
    expect(check.readiness(input)).toEqual({
      ready: false,
      reason: expect.stringContaining("no context or sources"),
    });
    const { result } = runLayer({}, input);
    const outcome = await result;
    expect(Either.isLeft(outcome) && outcome.left).toMatchObject({ _tag: "VerificationError", layer: "nli" });
  });

  it.each([
    ["entailment", 0.8, 0.8],
    ["neutral", 0.8, 0.4],
    ["contradiction", 0.8, 0.2],
  ] as const)("scores %s at confidence %d as %d", (relationship, confidence, expected) => {
    expect(nliScore(relationship, confidence)).toBeCloseTo(expected);
  });
});
