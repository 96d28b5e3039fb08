import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import { DedupError } from "../errors.js";
import { makeLshDuplicateChecker } from "./lsh-duplicate-checker.js";
import { withSemanticDedup } from "./semantic-duplicate-checker.js";

describe("makeLshDuplicateChecker", () => {
  it("scopes duplicates to their user", async () => {
    const checker = makeLshDuplicateChecker();
    await Effect.runPromise(checker.remember({ id: "m1", userId: "alice", content: "We use PostgreSQL 15" }));
    const forAlice = await Effect.runPromise(
      checker.check({ userId: "alice", content: "we use postgresql 15" }),
    );
    const forBob = await Effect.runPromise(checker.check({ userId: "bob", content: "we use postgresql 15" }));
    expect(forAlice).toEqual({ isDuplicate: true, similarity: 1, memoryId: "m1", method: "lexical" });
    expect(forBob.isDuplicate).toBe(false);
  });

  it("honours a configured threshold", async () => {
    const checker = makeLshDuplicateChecker({ threshold: 0.5 });
    await Effect.runPromise(checker.remember({ id: "m1", userId: "u", content: "a b c d" }));
    const result = await Effect.runPromise(checker.check({ userId: "u", content: "a b c e" }));
    expect(result).toMatchObject({ isDuplicate: true, similarity: 0.6 });
  });
});

describe("withSemanticDedup", () => {
  const embedder = (vectors: Record<string, number[]>, calls: string[][]) => ({
    embed: (texts: readonly string[]) =>
      Effect.suspend(() => {
        calls.push([...texts]);
        return Effect.succeed(texts.map((text) => vectors[text] ?? [0, 0, 1]));
      }),
  });

  it("catches a paraphrase the word overlap misses, and says it was semantic", async () => {
    const calls: string[][] = [];
    const checker = withSemanticDedup(
      makeLshDuplicateChecker(),
      embedder(
        { "We store memories in Pixeltable": [1, 0, 0], "Pixeltable holds our memory data": [0.99, 0.05, 0] },
        calls,
      ),
    );
    await Effect.runPromise(
      checker.remember({ id: "m1", userId: "u", content: "We store memories in Pixeltable" }),
    );
    const result = await Effect.runPromise(
      checker.check({ userId: "u", content: "Pixeltable holds our memory data" }),
    );
    expect(result).toMatchObject({ isDuplicate: true, memoryId: "m1", method: "semantic" });
    expect(calls).toEqual([["We store memories in Pixeltable"], ["Pixeltable holds our memory data"]]);
  });

  it("an embedding outage fails the check (the gate then reviews)", async () => {
    const checker = withSemanticDedup(makeLshDuplicateChecker(), {
      embed: () => Effect.fail(new DedupError({ message: "embedding endpoint returned 500" })),
    });
    const exit = await Effect.runPromiseExit(checker.check({ userId: "u", content: "anything" }));
    expect(exit._tag).toBe("Failure");
  });
});

describe("withSemanticDedup limits", () => {
  it("keeps embeddings for at most maxUsers users and at most maxPerUser per user", async () => {
    const embed = { embed: (texts: readonly string[]) => Effect.succeed(texts.map(() => [1, 0, 0])) };
    const checker = withSemanticDedup(makeLshDuplicateChecker(), embed, { maxUsers: 2, maxPerUser: 1 });
    const remember = (id: string, userId: string, content: string) =>
      Effect.runPromiseExit(checker.remember({ id, userId, content }));
    expect((await remember("m1", "u1", "first claim"))._tag).toBe("Success");
    expect((await remember("m2", "u2", "second claim"))._tag).toBe("Success");
    const third = await remember("m3", "u3", "third claim");
    expect(third._tag === "Failure" && JSON.stringify(third.cause)).toContain("most users");
    await remember("m4", "u1", "a later claim of u1");
    const check = await Effect.runPromise(checker.check({ userId: "u1", content: "entirely new words" }));
    expect(check).toMatchObject({ isDuplicate: true, memoryId: "m4", method: "semantic" });
  });
});

describe("dedup user limits after forget, and before any embedding", () => {
  it("a user whose memories were all forgotten frees a place under maxUsers (lexical index)", async () => {
    const checker = makeLshDuplicateChecker({ maxUsers: 1 });
    await Effect.runPromise(checker.remember({ id: "m1", userId: "u1", content: "alpha beta gamma" }));
    const refused = await Effect.runPromiseExit(
      checker.remember({ id: "m2", userId: "u2", content: "delta epsilon zeta" }),
    );
    expect(refused._tag).toBe("Failure");
    await Effect.runPromise(checker.forget({ id: "m1", userId: "u1" }));
    expect(checker.indexOf("u1")).toBeUndefined();
    await Effect.runPromise(checker.remember({ id: "m2", userId: "u2", content: "delta epsilon zeta" }));
    const found = await Effect.runPromise(checker.check({ userId: "u2", content: "delta epsilon zeta" }));
    expect(found).toMatchObject({ isDuplicate: true, memoryId: "m2" });
  });

  it("semantic dedup refuses a user past the limit before indexing or embedding, and forget frees the place", async () => {
    const embedded: string[] = [];
    const embed = {
      embed: (texts: readonly string[]) =>
        Effect.sync(() => {
          embedded.push(...texts);
          return texts.map(() => [1, 0, 0]);
        }),
    };
    const lexical = makeLshDuplicateChecker();
    const checker = withSemanticDedup(lexical, embed, { maxUsers: 1 });
    await Effect.runPromise(checker.remember({ id: "m1", userId: "u1", content: "first claim" }));
    const refused = await Effect.runPromiseExit(
      checker.remember({ id: "m2", userId: "u2", content: "second claim" }),
    );
    expect(refused._tag === "Failure" && JSON.stringify(refused.cause)).toContain("most users");
    // Nothing of the refused memory was embedded or indexed.
    expect(embedded).toEqual(["first claim"]);
    expect(lexical.indexOf("u2")).toBeUndefined();
    await Effect.runPromise(checker.forget({ id: "m1", userId: "u1" }));
    const accepted = await Effect.runPromiseExit(
      checker.remember({ id: "m2", userId: "u2", content: "second claim" }),
    );
    expect(accepted._tag).toBe("Success");
  });
});
