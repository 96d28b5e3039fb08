import { Effect, Either } from "effect";
import { describe, expect, it } from "vitest";
import { makeInMemoryFactualMemory } from "./factual-memory.js";

const memory = makeInMemoryFactualMemory([
  { fact: "The Eiffel Tower was completed in 1889.", source: "encyclopedia" },
  "Water boils at 100 degrees Celsius at sea level.",
]);

describe("in-memory factual memory", () => {
  it.each([
    ["The Eiffel Tower was completed in 1889.", 1],
    ["the eiffel tower was completed in 1889", 1],
    ["The Eiffel Tower was not completed in 1889.", 0],
    ["The Eiffel Tower was completed in 1823.", 0],
    ["Paris is the capital of France.", 0],
  ])("finds %j with %d hit(s) at similarity >= 0.9", async (query, hits) => {
    const found = await Effect.runPromise(memory.search(query, { minSimilarity: 0.9 }));
    expect(found).toHaveLength(hits);
  });

  it("returns hits best first, with their source, within the limit", async () => {
    const found = await Effect.runPromise(
      memory.search("Eiffel Tower completed", { minSimilarity: 0.1, limit: 1 }),
    );
    expect(found).toEqual([expect.objectContaining({ source: "encyclopedia" })]);
  });

  it("refuses facts beyond its limit", async () => {
    const small = makeInMemoryFactualMemory(["one fact"], { maxFacts: 1 });
    const result = await Effect.runPromise(Effect.either(small.add("another fact")));
    expect(Either.isLeft(result) && result.left._tag).toBe("FactualMemoryError");
  });
});
