import { Effect, Either, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { ScriptedFailure, scriptedLLM } from "../../testing/scripted-model.js";
import { RiskModel } from "../../verification/risk-assessor.js";
import { classifyRiskWithModel, ModelRiskModelLive } from "./risk-model.js";

describe("classifyRiskWithModel", () => {
  it("returns the model's level and sends the text inside delimiters with the schema", async () => {
    const { model, layer } = scriptedLLM({
      script: { fixed: { level: "high", factors: ["medical advice"], reasoning: "dosage" } },
    });
    const text = "Take 500mg of ibuprofen every 2 hours.";
    const result = await Effect.runPromise(classifyRiskWithModel(text).pipe(Effect.provide(layer)));
    expect(result.level).toBe("high");
    const [call] = model.generateCalls();
    expect(call?.prompt).toBe(`<text_under_test>\n${text}\n</text_under_test>`);
    expect(call?.jsonSchema).toMatchObject({
      properties: { level: { enum: ["low", "medium", "high", "critical"] } },
    });
  });

  it("fails with a VerificationError when the model is down", async () => {
    const { layer } = scriptedLLM({ script: { fixed: new ScriptedFailure({ status: 403 }) } });
    const result = await Effect.runPromise(
      Effect.either(classifyRiskWithModel("text").pipe(Effect.provide(layer))),
    );
    expect(Either.isLeft(result) && result.left._tag).toBe("VerificationError");
  });

  it("answers the verification service's RiskModel port", async () => {
    const { layer } = scriptedLLM({
      script: { fixed: { level: "medium", factors: [], reasoning: "claims" } },
    });
    const program = Effect.flatMap(RiskModel, (model) => model.classify("The GDP grew 3% in 2023."));
    const level = await Effect.runPromise(
      program.pipe(Effect.provide(ModelRiskModelLive.pipe(Layer.provide(layer)))),
    );
    expect(level).toBe("medium");
  });
});
