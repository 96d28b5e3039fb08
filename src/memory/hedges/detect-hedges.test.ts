import { describe, expect, it } from "vitest";
import { detectHedges } from "./detect-hedges.js";

describe("detectHedges", () => {
  it.each([
    ["I think we should use Redis", "block", "personal-speculation", "I think"],
    ["I guess the API supports this", "block", "personal-speculation", "I guess"],
    ["I believe the cache is warm", "block", "personal-speculation", "I believe"],
    ["I assume the job runs nightly", "block", "personal-speculation", "I assume"],
    ["I'd guess it is fine", "block", "personal-speculation", "I'd guess"],
    ["I don't know which port it uses", "block", "admitted-uncertainty", "I don't know"],
    ["I don’t know which port it uses", "block", "admitted-uncertainty", "I don’t know"],
    ["I'm not sure the index exists", "block", "admitted-uncertainty", "not sure"],
    ["The index exists, but I could be wrong", "block", "admitted-uncertainty", "I could be wrong"],
    ["Maybe we should add a cache", "block", "suggestion", "Maybe we should"],
    ["Perhaps we could shard the table", "block", "suggestion", "Perhaps we could"],
    ["Maybe we could try GraphQL", "block", "suggestion", "Maybe we could"],
    ["The server may timeout under load", "review", "technical-hedge", "may"],
    ["Retries might hide the error", "review", "technical-hedge", "might"],
    ["Connections typically complete in <100ms", "review", "technical-hedge", "typically"],
    ["Builds often fail on Mondays", "review", "technical-hedge", "often"],
    ["The job usually takes an hour", "review", "technical-hedge", "usually"],
    ["The table holds approximately 2 million rows", "review", "approximation", "approximately"],
    ["The table holds around 2 million rows", "review", "approximation", "around"],
    ["The queue holds roughly a day of events", "review", "approximation", "roughly"],
  ])("%s → %s (%s)", (claim, action, category, phrase) => {
    const result = detectHedges(claim);
    expect(result.action).toBe(action);
    expect(result.isSpeculative).toBe(true);
    expect(result.hedges[0]).toMatchObject({ category, phrase });
    const first = result.hedges[0]!;
    expect(claim.slice(first.span.start, first.span.end)).toBe(phrase);
  });

  it.each([
    ["Per ADR-003, we use PostgreSQL"],
    ["The release shipped in May 2024"],
    ["The freeze starts on 5 May"],
    ["Backups moved to S3 in May"],
    ["The migration couldn't complete because the disk was full"],
    ["The server could not connect to the database"],
    ["The retry count should be 5"],
    ["The endpoint should return 200 for a valid token"],
    ["The office is around the corner"],
    ["See https://docs.example.com/may-be-usually"],
  ])("%s has no hedge (false-positive filters)", (claim) => {
    const result = detectHedges(claim);
    expect(result).toEqual({ isSpeculative: false, action: "continue", hedges: [] });
  });

  it.each([
    ["I think we should use Redis, definitely"],
    ["Definitely, I think we should use Redis"],
    ["I certainly believe the API is stable"],
    ["The server may timeout, but I guess that is rare"],
    ["It is 100% true, absolutely verified: I assume the port is 5432"],
  ])("no bypass: %s still blocks", (claim) => {
    expect(detectHedges(claim).action).toBe("block");
  });

  it("a modal 'May' opening a sentence is still a hedge", () => {
    expect(detectHedges("May cause data loss if interrupted").action).toBe("review");
  });

  it("'should' without a number is a technical hedge", () => {
    expect(detectHedges("The timeout should be increased").action).toBe("review");
  });

  it("lists every hedge in text order", () => {
    const result = detectHedges("It usually works, and I think it may scale");
    expect(result.hedges.map((hedge) => hedge.phrase)).toEqual(["usually", "I think", "may"]);
    expect(result.action).toBe("block");
  });
});

describe("detectHedges qualifiers", () => {
  it.each([
    ["I certainly believe it"],
    ["I do really think so"],
    ["We would personally guess yes"],
    ["I, honestly think so"],
  ])("%s is personal speculation", (claim) => {
    expect(detectHedges(claim).hedges[0]?.category).toBe("personal-speculation");
  });
});
