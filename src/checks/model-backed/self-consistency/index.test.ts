import { Effect, Either } from "effect";
import { describe, expect, it } from "vitest";
import { scriptedLLM } from "../../../testing/scripted-model.js";
import { layerInputOf } from "../shared/layer-input.js";
import { makeSelfConsistencyLayer } from "./index.js";
import { paraphrases } from "./prompts.js";

const text = "Water boils at 100 degrees Celsius at sea level.";
const answer = (agrees: boolean, confidence = 0.9) => ({
  claims: [{ claim: 0, agrees, confidence, reasoning: agrees ? "Standard fact." : "Not so." }],
});

const runLayer = (answers: readonly object[]) => {
  const { model, layer } = scriptedLLM({ script: { sequence: answers } });
  const result = Effect.runPromise(
    Effect.either(
      Effect.flatMap(makeSelfConsistencyLayer(), (check) => check.run(layerInputOf(text))).pipe(
        Effect.provide(layer),
      ),
    ),
  );
  return { model, result };
};

describe("self-consistency layer", () => {
  it("asks five paraphrased prompts and passes when they agree", async () => {
    const { model, result } = runLayer([true, true, true, true, true].map((agrees) => answer(agrees)));
    const outcome = await result;
    const right = Either.isRight(outcome) ? outcome.right : undefined;
    expect(right).toMatchObject({
      passed: true,
      claims: [{ verdict: "supported" }],
      details: { variations: 5 },
    });
    expect(right?.score).toBeCloseTo(0.9);
    const calls = model.generateCalls();
    expect(calls.map((call) => call.prompt.split("\n")[0])).toEqual(paraphrases);
    expect(calls.every((call) => call.prompt.includes(`<claims>\n[0] ${text}\n</claims>`))).toBe(true);
    expect(new Set(calls.map((call) => JSON.stringify(call.jsonSchema))).size).toBe(1);
  });

  it.each([
    { answers: [true, true, true, false, false], passed: false, verdict: "unsupported", agreementRate: 0.6 },
    {
      answers: [false, false, false, false, true],
      passed: false,
      verdict: "contradicted",
      agreementRate: 0.2,
    },
    { answers: [true, true, true, true, false], passed: true, verdict: "supported", agreementRate: 0.8 },
  ])("agreement $agreementRate gives $verdict", async ({ answers, passed, verdict, agreementRate }) => {
    const { result } = runLayer(answers.map((agrees) => answer(agrees)));
    const outcome = await result;
    expect(Either.isRight(outcome) && outcome.right).toMatchObject({
      passed,
      claims: [{ verdict }],
      details: { perClaim: [{ agreementRate }] },
    });
  });

  it("counts a skipped claim as not agreeing", async () => {
    const { result } = runLayer([answer(true), answer(true), answer(true), answer(true), { claims: [] }]);
    const outcome = await result;
    expect(Either.isRight(outcome) && outcome.right).toMatchObject({
      passed: true,
      details: { perClaim: [{ agreementRate: 0.8 }] },
    });
  });
});
