import { Effect, Either } from "effect";
import { describe, expect, it } from "vitest";
import { type RecordedGenerateCall, scriptedLLM } from "../../../testing/scripted-model.js";
import { layerInputOf } from "../shared/layer-input.js";
import { makeMultiSourceLayer } from "./index.js";

const claim = "The Eiffel Tower was completed in 1889.";
const sources = [
  "Construction finished in March 1889, for the World's Fair.",
  "The tower was completed in 1889 and opened to the public in May.",
  "The tower is repainted every seven years.",
];

const judge = (relation: string, quote: string, confidence = 0.9) => ({
  claims: [{ claim: 0, relation, confidence, quote }],
});

const runLayer = (
  respond: (call: RecordedGenerateCall, index: number) => object,
  sourceTexts: readonly string[],
) => {
  const { model, layer } = scriptedLLM({ script: { respond } });
  const result = Effect.runPromise(
    Effect.either(
      Effect.flatMap(makeMultiSourceLayer(), (check) =>
        check.run(layerInputOf(claim, { sources: sourceTexts })),
      ).pipe(Effect.provide(layer)),
    ),
  );
  return { model, result };
};

/** Answers by which source the prompt carries. */
const bySource = (answers: Record<number, object>) => (call: RecordedGenerateCall) => {
  const index = sources.findIndex((source) => call.prompt.includes(source));
  return answers[index] ?? judge("not-mentioned", "", 0.5);
};

describe("multi-source layer", () => {
  it("passes a claim two of three sources support, with quotes mapped to source spans", async () => {
    const { model, result } = runLayer(
      bySource({
        0: judge("supports", "Construction finished in March 1889"),
        1: judge("supports", "The tower was completed in 1889"),
      }),
      sources,
    );
    const outcome = await result;
    const right = Either.isRight(outcome) ? outcome.right : undefined;
    expect(right).toMatchObject({ passed: true, details: { sourcesChecked: 3 } });
    expect(right?.claims?.[0]?.evidence).toEqual([
      {
        source: 0,
        span: { start: 0, end: 35 },
        text: "Construction finished in March 1889",
        score: 0.9,
        relation: "supports",
      },
      {
        source: 1,
        span: { start: 0, end: 31 },
        text: "The tower was completed in 1889",
        score: 0.9,
        relation: "supports",
      },
    ]);
    const calls = model.generateCalls();
    expect(calls).toHaveLength(3);
    expect(calls.map((call) => call.prompt.includes(`<source>\n${sources[0]}\n</source>`))).toContain(true);
    expect(calls.every((call) => call.jsonSchema !== undefined && call.schemaName === "source_verdict")).toBe(
      true,
    );
  });

  it.each([
    {
      name: "one supporting source",
      answers: { 0: judge("supports", "Construction finished in March 1889") },
      verdict: "unsupported",
    },
    {
      name: "sources contradicting it",
      answers: { 0: judge("contradicts", "March 1889"), 1: judge("contradicts", "1889") },
      verdict: "contradicted",
    },
  ])("fails with $name", async ({ answers, verdict }) => {
    const { result } = runLayer(bySource(answers), sources);
    const outcome = await result;
    expect(Either.isRight(outcome) && outcome.right).toMatchObject({ passed: false, claims: [{ verdict }] });
  });

  it("reports too few sources as InsufficientSourcesError data and fails, without a model call", async () => {
    const { model, result } = runLayer(() => ({}), [sources[0] ?? ""]);
    const outcome = await result;
    expect(Either.isRight(outcome) && outcome.right).toMatchObject({
      passed: false,
      score: 0,
      details: { error: { _tag: "InsufficientSourcesError", required: 2, available: 1 } },
    });
    expect(model.generateCalls()).toHaveLength(0);
  });
});
