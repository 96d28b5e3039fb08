import { Effect } from "effect";
import { describe, expect, it } from "vitest";
import type { Claim, LayerInput } from "../../../model/layer.js";
import { limitReachedCode } from "./claim-findings.js";
import { makeNumbersLayer } from "./numbers-layer.js";

const inputOf = (sentences: readonly string[], evidence: string): LayerInput => {
  const text = sentences.join(" ");
  let offset = 0;
  const claims: Claim[] = sentences.map((sentence, index) => {
    const start = text.indexOf(sentence, offset);
    offset = start + sentence.length;
    return { index, text: sentence, span: { start, end: start + sentence.length }, kind: "factual" };
  });
  return { text, claims, evidence: [{ index: 0, origin: "source", text: evidence }] };
};

// A made-up ledger: one line per account, the figure of account k is 10,000 + 7k.
const ledger = (accounts: number) =>
  Array.from(
    { length: accounts },
    (_, k) =>
      `Account ${String.fromCharCode(65 + (k % 26))} closed the year at ${(10_000 + 7 * k).toLocaleString("en-US")} dollars.`,
  ).join("\n");

/** Sentences stating the ledger's first accounts, one each, as the ledger writes their figures. */
const accountSentences = (count: number) =>
  Array.from(
    { length: count },
    (_, k) =>
      `Account ${String.fromCharCode(65 + k)} closed at ${(10_000 + 7 * k).toLocaleString("en-US")} dollars.`,
  );

const run = (input: LayerInput, layer = makeNumbersLayer()) => Effect.runSync(layer.run(input));

describe("numbers layer: limits are reported, never silent", () => {
  it("reads a long source whole by default: the last figure of 20,000 traces", () => {
    const result = run(inputOf(["The last account closed at 149,993 dollars."], ledger(20_000)));
    expect(result.passed).toBe(true);
    expect(result.details?.limitReached).toBeUndefined();
  });

  it("makes a figure past the source limit unverifiable, not wrong", () => {
    const layer = makeNumbersLayer({ maxSourceNumbers: 50 });
    const result = run(
      inputOf(
        ["The first account closed at 10,000 dollars.", "The last closed at 10,693 dollars."],
        ledger(100),
      ),
      layer,
    );
    expect(result.passed).toBe(false);
    expect(result.details?.limitReached).toEqual(["maxSourceNumbers"]);
    expect(result.details?.numbersFlagged).toBe(0);
    const [first, last] = result.claims ?? [];
    expect(first?.verdict).toBe("supported");
    expect(last?.verdict).toBe("unverifiable");
    expect(last?.issues.map((issue) => issue.code)).toEqual([limitReachedCode]);
  });

  it("still calls a written calculation that does not compute wrong when the source is read in part", () => {
    const layer = makeNumbersLayer({ maxSourceNumbers: 5 });
    const result = run(inputOf(["Together that is 10,000 + 10,007 = 20,100 dollars."], ledger(100)), layer);
    expect(result.claims?.[0]?.verdict).toBe("contradicted");
  });

  it("leaves the numbers past the trace work bound unchecked, their claims unverifiable, and names the bound", () => {
    // 100 source figures: each traced number counts 101 (every figure once, and one), so a bound of 150 lets
    // the first two numbers through and leaves the third.
    const layer = makeNumbersLayer({ maxTraceWork: 150 });
    const result = run(inputOf(accountSentences(3), ledger(100)), layer);
    expect(result.passed).toBe(false);
    expect(result.details?.limitReached).toEqual(["maxTraceWork"]);
    expect(result.details?.numbersUnverified).toBe(1);
    expect(result.claims?.map((claim) => claim.verdict)).toEqual(["supported", "supported", "unverifiable"]);
    const [issue] = result.claims?.[2]?.issues ?? [];
    expect(issue?.code).toBe(limitReachedCode);
    expect(issue?.message).toContain("maxTraceWork");
    const validation = result.details?.validation as { skipped: number; skippedByWork?: number } | undefined;
    expect(validation?.skipped).toBe(1);
    expect(validation?.skippedByWork).toBe(1);
  });

  it("names each bound for the numbers it left: the work bound's first, then the answer's", () => {
    const layer = makeNumbersLayer({ maxTraceWork: 150, maxAnswerNumbers: 3 });
    const result = run(inputOf(accountSentences(4), ledger(100)), layer);
    expect(result.details?.limitReached).toEqual(["maxTraceWork", "maxAnswerNumbers"]);
    expect(result.claims?.map((claim) => claim.verdict)).toEqual([
      "supported",
      "supported",
      "unverifiable",
      "unverifiable",
    ]);
    expect(result.claims?.[2]?.issues[0]?.message).toContain("(maxTraceWork)");
    expect(result.claims?.[3]?.issues[0]?.message).toContain("(maxAnswerNumbers)");
  });

  it("makes the claims of answer numbers past the answer limit unverifiable", () => {
    const layer = makeNumbersLayer({ maxAnswerNumbers: 2 });
    const result = run(inputOf(accountSentences(3), ledger(10)), layer);
    expect(result.passed).toBe(false);
    expect(result.details?.limitReached).toEqual(["maxAnswerNumbers"]);
    expect(result.claims?.map((claim) => claim.verdict)).toEqual(["supported", "supported", "unverifiable"]);
  });
});

describe("numbers layer: figures repeated in the answer and the sources", () => {
  // Each answer figure used to be traced against every equal source figure, and each pair search walked every
  // figure in a value window: 500 answer figures times 120,000 source figures ran out of memory.
  it.each([
    ["the same percentage everywhere", "1.5% ", "1.5% "],
    ["a figure the sources never state, among thousands of ones", "$1,000 ", "[1] "],
  ])("answers within seconds with %s", (_case, answerUnit, sourceUnit) => {
    const text = answerUnit.repeat(2_000);
    const started = performance.now();
    const result = run({
      text,
      claims: [{ index: 0, text, span: { start: 0, end: text.length }, kind: "factual" }],
      evidence: [0, 1, 2].map((index) => ({
        index,
        origin: "source" as const,
        text: sourceUnit.repeat(40_000),
      })),
    });
    expect(result.layer).toBe("numbers");
    expect(performance.now() - started).toBeLessThan(5_000);
    // 120,000 source figures: the default work bound traces the first 250 of the 500 numbers, and says so.
    expect(result.passed).toBe(false);
    expect(result.details?.limitReached).toContain("maxTraceWork");
  });
});
