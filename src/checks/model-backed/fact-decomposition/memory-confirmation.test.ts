import { Effect, Either, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { scriptedLLM } from "../../../testing/scripted-model.js";
import { InMemoryFactualMemory, lexicalSimilarity } from "../factual-memory.js";
import { layerInputOf } from "../shared/layer-input.js";
import { makeFactDecompositionLayer } from "./index.js";
import { memoryConfirms } from "./memory-confirmation.js";

/** Runs fact decomposition on one fact with a memory; the model cannot verify any fact it is asked. */
const verifyAgainstMemory = async (fact: string, stored: string) => {
  const { model, layer } = scriptedLLM({
    script: {
      respond: (call) =>
        call.purpose === "fact-decomposition.decompose"
          ? { facts: [{ claim: 0, fact, type: "factual" }] }
          : { verdicts: [{ fact: 0, verdict: "unverifiable", reason: "not in the context" }] },
    },
  });
  const outcome = await Effect.runPromise(
    Effect.either(
      Effect.flatMap(makeFactDecompositionLayer(), (check) => check.run(layerInputOf(fact))).pipe(
        Effect.provide(Layer.merge(layer, InMemoryFactualMemory([stored]))),
      ),
    ),
  );
  if (Either.isLeft(outcome)) throw outcome.left;
  const purposes = model.generateCalls().map((call) => call.purpose);
  return { result: outcome.right, askedModel: purposes.includes("fact-decomposition.check") };
};

// Pairs that share nearly every word, so lexical similarity is at or above the memory threshold (0.9).
const nearMisses = [
  [
    "The Harbor Trust board approved the second container terminal in Gdynia Poland in August 2021.",
    "The Harbor Trust board approved the second container terminal in Gdynia Poland in August 2012.",
  ],
  [
    "The Harbor Trust board was not approving the second container terminal in Gdynia Poland.",
    "The Harbor Trust board was approving the second container terminal in Gdynia Poland.",
  ],
  ["Kestrel Foods acquired Brightwater Dairy.", "Brightwater Dairy acquired Kestrel Foods."],
] as const;

describe("fact memory: a near miss is not a confirmation", () => {
  it("sends near misses of a stored fact to the model check instead of confirming them", async () => {
    for (const [fact, stored] of nearMisses) {
      expect(lexicalSimilarity(fact, stored)).toBeGreaterThanOrEqual(0.9);
      const { result, askedModel } = await verifyAgainstMemory(fact, stored);
      expect(askedModel).toBe(true);
      expect(result).toMatchObject({ passed: false, details: { verifiedFromMemory: 0 } });
      expect(result.claims?.[0]?.verdict).toBe("unsupported");
    }
  });

  it("still confirms a fact the memory states, also inside a longer stored fact", async () => {
    for (const [fact, stored] of [
      ["Kestrel Foods acquired Brightwater Dairy.", "Kestrel Foods acquired Brightwater Dairy."],
      [
        "Kestrel Foods acquired Brightwater Dairy in 2019.",
        "Kestrel Foods acquired Brightwater Dairy in 2019.",
      ],
    ] as const) {
      const { result, askedModel } = await verifyAgainstMemory(fact, stored);
      expect(askedModel).toBe(false);
      expect(result).toMatchObject({ passed: true, details: { verifiedFromMemory: 1 } });
    }
    expect(
      memoryConfirms("Kestrel acquired Brightwater.", "In 2019 Kestrel acquired Brightwater for cash."),
    ).toBe(true);
  });
});
