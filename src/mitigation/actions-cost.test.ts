import { describe, expect, it } from "vitest";
import type { ClaimFinding } from "../model/claim.js";
import { pairedCostRatio } from "../testing/measured-cost.js";
import { flagUncertain, redact } from "./actions.js";

/**
 * Mitigating an answer costs time in step with the answer, however many of its claims fail. Each region was
 * once cut out of (or marked in) the text made so far, which read that whole text again: an answer of 8,000
 * sentences, every other one failing, took 0.8 s to redact (500 to 2,000 sentences: 4 per doubling).
 */

const sentence = "The revenue rose sharply last year. ";

/** `sentences` sentences, every other one failing, with its claims. */
const answerOf = (sentences: number): { text: string; claims: ClaimFinding[] } => {
  const text = sentence.repeat(sentences);
  const claims = Array.from({ length: sentences }, (_, at): ClaimFinding => {
    const start = at * sentence.length;
    const failing = at % 2 === 0;
    return {
      text: sentence.trim(),
      span: { start, end: start + sentence.length - 1 },
      kind: "factual",
      verdict: failing ? "contradicted" : "supported",
      score: failing ? 0 : 1,
      evidence: [],
      issues: failing
        ? [{ code: "LOW_SUPPORT", message: "not in the sources", span: { start, end: start + 1 } }]
        : [],
      layers: ["grounding"],
    };
  });
  return { text, claims };
};

/**
 * Each timed run mitigates its answer 400 times: the thread's CPU clock moves in steps, and one redaction of
 * 500 sentences takes a fraction of a millisecond, which can read as no time at all. The answers are small
 * (18 to 72 KB) and built before the clock starts: a flagged answer of 16,000 sentences is a 900 KB string,
 * and writing strings that size out of the processor's caches read 2.2-2.4 per doubling where the work is linear.
 */
const answers = new Map<number, { text: string; claims: ClaimFinding[] }>();
const answerFor = (sentences: number) => {
  let answer = answers.get(sentences);
  if (answer === undefined) {
    answer = answerOf(sentences);
    answers.set(sentences, answer);
  }
  return answer;
};
const doublingRatio = (mitigate: (answer: { text: string; claims: ClaimFinding[] }) => unknown) =>
  pairedCostRatio(
    async (sentences) => {
      const answer = answerFor(sentences);
      for (let round = 0; round < 400; round++) mitigate(answer);
    },
    500,
    2_000,
    { warmups: 1, rounds: 3 },
  ).then(Math.sqrt);

describe("mitigation of a long answer", () => {
  it("doubling the failing claims at most about doubles the time of redacting them", async () => {
    expect(await doublingRatio(({ text, claims }) => redact(text, claims))).toBeLessThan(2.5);
  }, 60_000);

  it("doubling the failing claims at most about doubles the time of flagging them", async () => {
    expect(await doublingRatio(({ text, claims }) => flagUncertain(text, claims))).toBeLessThan(2.5);
  }, 60_000);

  it("redacts every failing sentence and keeps every other", () => {
    const { text, claims } = answerOf(6);
    const { text: redacted, removed } = redact(text, claims);
    expect(removed).toHaveLength(3);
    expect(redacted).toBe(`${sentence.repeat(3).trimEnd()}\n\n[3 unsupported statements were removed]`);
  });
});
