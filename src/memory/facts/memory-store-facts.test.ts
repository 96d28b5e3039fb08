import { Effect, Layer } from "effect";
import { describe, expect, it } from "vitest";
import { FactualMemory } from "../../checks/model-backed/factual-memory.js";
import { PgliteClientLayer } from "../../storage/pglite-client.js";
import { MemoryStore } from "../store/memory-store.js";
import { SqlMemoryLayer } from "../store/sql-memory-layer.js";
import { FactualMemoryFromStore } from "./memory-store-facts.js";

const runtime = FactualMemoryFromStore("alice").pipe(
  Layer.provideMerge(SqlMemoryLayer().pipe(Layer.provide(PgliteClientLayer("memory://")))),
);

describe("factualMemoryFromStore over PGlite", () => {
  it("finds the user's stored facts by similarity, and not other users' or other types", async () => {
    const program = Effect.gen(function* () {
      const memories = yield* MemoryStore;
      const evidence = (claim: string) => ({
        claim,
        captureTime: new Date(),
        confidence: "high" as const,
        metadata: {},
      });
      const add = (userId: string, content: string, memoryType: "fact" | "preference" = "fact") =>
        memories.store({ userId, content, memoryType, source: "test", evidence: evidence(content) });
      yield* add("alice", "The Eiffel Tower was completed in 1889.");
      yield* add("alice", "The Eiffel Tower was completed in 1889 in Paris, I like it.", "preference");
      yield* add("bob", "The Eiffel Tower was completed in 1889.");
      const memory = yield* FactualMemory;
      const exact = yield* memory.search("The Eiffel Tower was completed in 1889.", { minSimilarity: 0.9 });
      const wrong = yield* memory.search("The Eiffel Tower was completed in 1823.", { minSimilarity: 0.9 });
      return { exact, wrong };
    });
    const { exact, wrong } = await Effect.runPromise(program.pipe(Effect.provide(runtime)));
    expect(exact).toEqual([
      { fact: "The Eiffel Tower was completed in 1889.", similarity: expect.closeTo(1, 5), source: "test" },
    ]);
    expect(wrong).toEqual([]);
  });
});
